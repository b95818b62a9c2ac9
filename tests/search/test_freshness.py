"""Every kind of change to the sources is seen by the next search (DESIGN §12, docs/search.md).

Each case runs twice: as the CLI does it (a new engine per search: a full stat scan) and as a
long-lived process does it (one engine whose change feed is armed, Linux inotify; elsewhere it
falls back to the full scan, and the same assertions hold).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from savenow.search import MemorySearch, SearchOptions
from savenow.search import index as index_module

from .conftest import TODAY

Search = Callable[[str], list[str]]  # query → result paths


@pytest.fixture(params=["new-engine-each-time", "long-lived"])
def paths_for(request: pytest.FixtureRequest, workspace: Path) -> Iterator[Callable[..., Search]]:
    engines: list[MemorySearch] = []

    def make(options: SearchOptions | None = None) -> Search:
        options = options or SearchOptions()
        if request.param == "long-lived":
            engine = MemorySearch(workspace, options, today=TODAY)
            engines.append(engine)
            engine.search("证书")
            engine.search("证书")  # the second full scan arms the feed
            if sys.platform.startswith("linux"):
                assert engine._sync is not None and engine._sync._feed is not None

            def run(query: str) -> list[str]:
                return [hit.path for hit in engine.search(query).results]

            return run

        def fresh(query: str) -> list[str]:
            with MemorySearch(workspace, options, today=TODAY) as engine:
                return [hit.path for hit in engine.search(query).results]

        fresh("证书")
        return fresh

    yield make
    for engine in engines:
        engine.close()


def _rewrite(path: Path, old: str, new: str) -> None:
    """Edit in place (no rename, so the folder's mtime stays), keeping size and mtime if possible."""
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert old in text and len(old.encode()) == len(new.encode())
    with open(path, "r+b") as handle:
        handle.write(text.replace(old, new).encode("utf-8"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # a coarse clock would not move it


def test_an_edit_in_place_of_the_same_size_and_mtime(
    paths_for: Callable[..., Search], workspace: Path
) -> None:
    search = paths_for()
    note = workspace / "memory" / "2026-04-11.md"
    _rewrite(note, "桔梗", "玫瑰")  # written a moment ago: racy, re-hashed by the next scan
    assert search("玫瑰") == ["memory/2026-04-11.md"]
    assert "memory/2026-04-11.md" not in search("白色桔梗")


def test_an_old_file_edited_in_place(paths_for: Callable[..., Search], workspace: Path) -> None:
    note = workspace / "memory" / "2026-04-11.md"
    os.utime(note, ns=(10**18, 10**18))  # 2001: long before any scan, so not racy
    search = paths_for()
    with open(note, "ab") as handle:  # append: the folder does not change, only the file
        handle.write("- 车库门密码改成 zx-4410。\n".encode())
    assert search("zx-4410") == ["memory/2026-04-11.md"]


def test_a_file_added_removed_and_renamed(paths_for: Callable[..., Search], workspace: Path) -> None:
    search = paths_for()
    added = workspace / "memory" / "2026-05-30.md"
    added.write_text("# 2026-05-30\n\n## 打印机\n- 打印机型号 qz-8812。\n", encoding="utf-8")
    assert search("qz-8812") == ["memory/2026-05-30.md"]
    added.rename(workspace / "memory" / "2026-05-31.md")
    assert search("qz-8812") == ["memory/2026-05-31.md"]
    (workspace / "memory" / "2026-05-31.md").unlink()
    assert search("qz-8812") == []


def test_a_new_folder_and_a_file_in_it_later(paths_for: Callable[..., Search], workspace: Path) -> None:
    search = paths_for()
    folder = workspace / "memory" / "2026"
    folder.mkdir()
    assert search("qz-8812") == []  # the folder is new: the long-lived engine now watches it too
    (folder / "2026-05-30.md").write_text("## 打印机\n- 打印机型号 qz-8812。\n", encoding="utf-8")
    assert search("qz-8812") == ["memory/2026/2026-05-30.md"]
    shutil.rmtree(folder)
    assert search("qz-8812") == []


def test_memory_md_edited_and_the_memory_folder_replaced(
    paths_for: Callable[..., Search], workspace: Path
) -> None:
    search = paths_for()
    with open(workspace / "MEMORY.md", "a", encoding="utf-8") as handle:
        handle.write("- 保险单号 pol-5531。\n")
    assert search("pol-5531") == ["MEMORY.md"]
    shutil.rmtree(workspace / "memory")
    assert search("证书") == []
    (workspace / "memory").mkdir()
    (workspace / "memory" / "2026-05-30.md").write_text("## 证书\n- 证书换成 ECDSA。\n", encoding="utf-8")
    assert search("证书") == ["memory/2026-05-30.md"]


def test_a_file_moved_in_from_elsewhere(
    paths_for: Callable[..., Search], workspace: Path, tmp_path: Path
) -> None:
    search = paths_for()
    outside = tmp_path / "draft.txt"
    outside.write_text("## 打印机\n- 打印机型号 qz-8812。\n", encoding="utf-8")
    outside.rename(workspace / "memory" / "2026-05-30.md")
    assert search("qz-8812") == ["memory/2026-05-30.md"]


def test_a_touch_reindexes_nothing(workspace: Path) -> None:
    engine = MemorySearch(workspace, today=TODAY)
    engine.sync()
    engine.sync()
    os.utime(workspace / "memory" / "2026-04-11.md", ns=(10**18, 10**18))
    assert engine.sync().indexed == []
    engine.close()


def test_a_hard_linked_file_edited_through_its_other_name(
    paths_for: Callable[..., Search], workspace: Path, tmp_path: Path
) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    note = workspace / "memory" / "2026-04-11.md"
    os.link(note, other / "note.md")
    search = paths_for()
    with open(other / "note.md", "ab") as handle:  # the event, if any, goes to the other folder
        handle.write("- 车库门密码改成 zx-4410。\n".encode())
    assert search("zx-4410") == ["memory/2026-04-11.md"]


def test_a_changed_extra_paths_setting(workspace: Path) -> None:
    notes = workspace / "notes"
    notes.mkdir()
    (notes / "ideas.md").write_text("## 想法\n- 做一个 qz-8812 的支架。\n", encoding="utf-8")

    def paths(options: SearchOptions) -> list[str]:
        with MemorySearch(workspace, options, today=TODAY) as engine:
            return [hit.path for hit in engine.search("qz-8812").results]

    assert paths(SearchOptions()) == []
    assert paths(SearchOptions(extra_paths=(notes,))) == ["notes/ideas.md"]
    assert paths(SearchOptions()) == []  # dropped from the index again


def test_a_file_added_under_an_extra_path(workspace: Path) -> None:
    notes = workspace / "notes"
    notes.mkdir()
    with MemorySearch(workspace, SearchOptions(extra_paths=(notes,)), today=TODAY) as engine:
        engine.search("证书")
        engine.search("证书")
        (notes / "ideas.md").write_text("## 想法\n- 做一个 qz-8812 的支架。\n", encoding="utf-8")
        assert [hit.path for hit in engine.search("qz-8812").results] == ["notes/ideas.md"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the change feed is Linux inotify")
def test_an_unchanged_workspace_is_not_scanned_again(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = MemorySearch(workspace, today=TODAY)
    engine.search("证书")
    engine.search("证书")
    real = index_module.scan_sources
    calls: list[Path] = []

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(Path())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(index_module, "scan_sources", counting)
    for _ in range(3):
        assert engine.search("证书").results
    assert calls == []  # the kernel reported nothing: no stat scan
    (workspace / "memory" / "lock.tmp").write_text("x", encoding="utf-8")
    assert engine.search("证书").results and calls == []  # not a source file: still no scan
    (workspace / "memory" / "2026-04-11.md").write_text("## 证书\n- 证书 ok\n", encoding="utf-8")
    engine.search("证书")
    assert len(calls) == 1
    engine.close()


def test_without_a_change_feed_every_search_scans(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from savenow.search import watch

    monkeypatch.setattr(watch.ChangeFeed, "start", classmethod(lambda cls, targets: None))
    with MemorySearch(workspace, today=TODAY) as engine:
        engine.search("证书")
        engine.search("证书")
        note = workspace / "memory" / "2026-04-11.md"
        with open(note, "ab") as handle:
            handle.write("- 车库门密码改成 zx-4410。\n".encode())
        assert [hit.path for hit in engine.search("zx-4410").results] == ["memory/2026-04-11.md"]


def test_a_same_size_rewrite_with_its_old_mtime_put_back(
    paths_for: Callable[..., Search], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No racy window: os.utime sets the ctime to now, and a racy file would be re-hashed anyway.
    # With none, only the stored ctime can tell this file changed.
    monkeypatch.setattr(index_module, "RACY_NS", 0)
    note = workspace / "memory" / "2026-04-11.md"
    os.utime(note, ns=(10**18, 10**18))
    search = paths_for()
    assert _stored_ctime(workspace, "memory/2026-04-11.md") == note.stat().st_ctime_ns  # not marked racy
    _rewrite(note, "桔梗", "玫瑰")  # as `cp -p` or rsync would leave it: same size, same mtime
    assert search("玫瑰") == ["memory/2026-04-11.md"]


def _stored_ctime(workspace: Path, rel: str) -> int:
    import sqlite3

    with sqlite3.connect(workspace / ".savenow" / "search.sqlite") as db:
        (ctime,) = db.execute("SELECT ctime_ns FROM files WHERE path = ?", (rel,)).fetchone()
    return int(ctime)


def test_another_process_rewriting_the_index(workspace: Path) -> None:
    notes = workspace / "notes"
    notes.mkdir()
    (notes / "ideas.md").write_text("## 想法\n- 做一个 qz-8812 的支架。\n", encoding="utf-8")
    with MemorySearch(workspace, SearchOptions(extra_paths=(notes,)), today=TODAY) as engine:
        for _ in range(3):
            assert [hit.path for hit in engine.search("qz-8812").results] == ["notes/ideas.md"]
        with MemorySearch(workspace, SearchOptions(), today=TODAY) as other:  # no extra paths
            assert other.search("qz-8812").results == []  # …so it dropped notes/ from the index
        assert [hit.path for hit in engine.search("qz-8812").results] == ["notes/ideas.md"]


def test_an_index_of_schema_2_gains_ctimes_and_is_rehashed_once(workspace: Path) -> None:
    import sqlite3

    from savenow.search.store import MIGRATIONS, index_path

    path = index_path(workspace)
    path.parent.mkdir(parents=True)
    db = sqlite3.connect(path, isolation_level=None)
    for step in (1, 2):
        for statement in MIGRATIONS[step]:
            db.execute(statement)
    db.execute("PRAGMA user_version = 2")
    db.close()
    with MemorySearch(workspace, today=TODAY) as engine:
        assert engine.search("证书").results
        first = engine.sync()
    assert first.indexed == []
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM files WHERE ctime_ns IS NULL").fetchone()[0] == 0
    db.close()


def test_a_change_feed_that_fails_to_start_only_costs_speed(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from savenow.search import watch

    def broken(cls: object, targets: object) -> None:
        raise OSError("no inotify here")

    monkeypatch.setattr(watch.ChangeFeed, "start", classmethod(broken))
    with MemorySearch(workspace, today=TODAY) as engine:
        for _ in range(3):
            assert engine.search("证书").results
