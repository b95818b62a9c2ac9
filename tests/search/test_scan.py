"""The freshness scan of a fresh process (no change feed): one pass over the sources compared with
the stat the index holds (search/index.py ``scan_sources``), and an index opened cheaply."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from savenow.search import MemorySearch, SearchOptions
from savenow.search.index import Known, scan_sources
from savenow.search.store import IndexStore, index_path

from .conftest import TODAY


def _known(workspace: Path, options: SearchOptions) -> Known:
    scan = scan_sources(workspace, options, {})
    return {item.rel: (item.size, item.mtime_ns, item.ctime_ns) for item in scan.changed}


def test_an_unchanged_workspace_has_no_changed_file(workspace: Path) -> None:
    (workspace / "memory" / "2026" / "06").mkdir(parents=True)
    (workspace / "memory" / "2026" / "06" / "deep.md").write_text("## 深处\n- 一条\n", encoding="utf-8")
    known = _known(workspace, SearchOptions())
    assert "memory/2026/06/deep.md" in known and "MEMORY.md" in known
    scan = scan_sources(workspace, SearchOptions(), known)
    assert scan.present == set(known) and scan.changed == [] and scan.linked == []


def test_only_the_files_whose_stat_differs_are_changed(workspace: Path) -> None:
    known = _known(workspace, SearchOptions())
    note = workspace / "memory" / "2026-04-11.md"
    with open(note, "ab") as handle:
        handle.write(b"- one more line\n")
    (workspace / "memory" / "2026-06-01.md").write_text("## new\n- new\n", encoding="utf-8")
    scan = scan_sources(workspace, SearchOptions(), known)
    assert sorted(item.rel for item in scan.changed) == ["memory/2026-04-11.md", "memory/2026-06-01.md"]
    changed = next(item for item in scan.changed if item.rel == "memory/2026-04-11.md")
    assert changed.path == str(note) and changed.size == note.stat().st_size


def test_a_racy_file_is_changed_until_stored_with_its_ctime(workspace: Path) -> None:
    known = _known(workspace, SearchOptions())
    size, mtime_ns, _ctime = known["memory/2026-04-11.md"]
    known["memory/2026-04-11.md"] = (size, mtime_ns, -1)  # stored as racy: re-hash it
    assert [item.rel for item in scan_sources(workspace, SearchOptions(), known).changed] == [
        "memory/2026-04-11.md"
    ]


def test_symlinks_hidden_folders_and_other_files_are_not_sources(workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("## secret\n", encoding="utf-8")
    memory = workspace / "memory"
    (memory / "link.md").symlink_to(outside / "secret.md")
    (memory / "linked-folder").symlink_to(outside, target_is_directory=True)
    (memory / ".hidden").mkdir()
    (memory / ".hidden" / "x.md").write_text("## x\n", encoding="utf-8")
    (memory / "notes.txt").write_text("not markdown", encoding="utf-8")
    (memory / "folder.md").mkdir()  # a folder named like a note
    present = scan_sources(workspace, SearchOptions(), {}).present
    assert present == {"MEMORY.md", "memory/2026-03-02.md", "memory/2026-04-11.md", "memory/2026-05-20.md"}


def test_extra_paths_keep_their_keys_and_the_first_source_wins(workspace: Path, tmp_path: Path) -> None:
    notes = workspace / "notes"
    (notes / "sub").mkdir(parents=True)
    (notes / "sub" / "a.md").write_text("## a\n", encoding="utf-8")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "b.md").write_text("## b\n", encoding="utf-8")
    options = SearchOptions(
        extra_paths=(notes, outside, workspace / "memory", workspace / "MEMORY.md", workspace)
    )
    scan = scan_sources(workspace, options, {})
    rels = [item.rel for item in scan.changed]
    assert len(rels) == len(set(rels))  # memory/ again, MEMORY.md again, the workspace: nothing twice
    assert {"notes/sub/a.md", f"{outside.as_posix()}/b.md", "memory/2026-05-20.md"} <= set(rels)
    assert not any(rel.startswith("./") for rel in rels)


def test_a_hard_linked_file_is_reported_for_the_change_feed(workspace: Path, tmp_path: Path) -> None:
    note = workspace / "memory" / "2026-04-11.md"
    os.link(note, tmp_path / "other-name.md")
    known = _known(workspace, SearchOptions())
    scan = scan_sources(workspace, SearchOptions(), known)
    assert scan.changed == [] and [item.rel for item in scan.linked] == ["memory/2026-04-11.md"]


def test_an_up_to_date_index_opens_without_migrating(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    MemorySearch(workspace, today=TODAY).sync()

    def no_migration(*args: object) -> None:
        raise AssertionError("an up-to-date index was migrated")

    monkeypatch.setattr(IndexStore, "_migrate", staticmethod(no_migration))
    store = IndexStore.open(index_path(workspace))
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # set once, when it was made
    store.close()
    with MemorySearch(workspace, today=TODAY) as engine:
        assert engine.search("证书").results


def test_an_index_damaged_past_its_header_is_rebuilt(workspace: Path) -> None:
    MemorySearch(workspace, today=TODAY).sync()
    path = index_path(workspace)
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    raw = bytearray(path.read_bytes())
    raw[page_size:] = b"\xa5" * (len(raw) - page_size)  # every page but the first one is garbage
    path.write_bytes(bytes(raw))
    with MemorySearch(workspace, today=TODAY) as engine:
        assert engine.search("证书").results


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts this process's descriptors")
def test_the_scan_leaves_no_folder_open(workspace: Path) -> None:
    for folder in ("memory/a/b", "memory/c"):
        (workspace / folder).mkdir(parents=True)
        (workspace / folder / "x.md").write_text("## x\n", encoding="utf-8")
    before = len(os.listdir("/proc/self/fd"))
    assert len(scan_sources(workspace, SearchOptions(), {}).present) == 6
    assert len(os.listdir("/proc/self/fd")) == before

    class Interrupted(Exception):
        pass

    class Failing(dict[str, tuple[int, int, int]]):
        def get(self, key: str, default: object = None) -> tuple[int, int, int] | None:
            if key.endswith("/x.md"):  # in a/b or c: the other one is still to be read
                raise Interrupted
            return None

    with pytest.raises(Interrupted):
        scan_sources(workspace, SearchOptions(), Failing())
    assert len(os.listdir("/proc/self/fd")) == before
