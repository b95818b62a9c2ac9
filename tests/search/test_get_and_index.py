"""memory_get's refusals, index freshness after a write, a corrupt or newer index rebuilt."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import date, datetime
from pathlib import Path

import pytest

from savenow.cli import main
from savenow.errors import SearchPathRefusedError
from savenow.memory.writer import write_entries
from savenow.models import Entry
from savenow.search import MemorySearch, SearchOptions
from savenow.search.hooks import note_memory_write
from savenow.search.store import SCHEMA_VERSION, index_path
from savenow.storage.journal import on_committed_change

from .conftest import TODAY


def test_get_reads_lines_and_a_missing_file_is_empty(search: MemorySearch) -> None:
    result = search.get("memory/2026-05-20.md", from_line=3, lines=2)
    assert result.text == "## 09:00 - 路由器端口\n- 路由器管理端口从 8080 改成 8443。"
    assert search.get("MEMORY.md").text.startswith("# MEMORY.md")
    missing = search.get("memory/2030-01-01.md")
    assert missing.text == "" and missing.missing


@pytest.mark.parametrize(
    "path",
    [
        "../outside.md",
        "/etc/passwd",
        "memory/../../outside.md",
        ".savenow/search.sqlite",
        "notes.md",
        "memory/2026-05-20.txt",
        "sessions/x.jsonl",
        "",
    ],
)
def test_get_refuses_everything_else(search: MemorySearch, path: str) -> None:
    with pytest.raises(SearchPathRefusedError):
        search.get(path)


def test_get_refuses_a_symlink_leading_outside(workspace: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("secret\n", encoding="utf-8")
    (workspace / "memory" / "link.md").symlink_to(secret)
    with pytest.raises(SearchPathRefusedError):
        MemorySearch(workspace).get("memory/link.md")


def test_get_cli_refusal_is_one_stderr_line_and_exit_2(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["get", "--workspace", str(workspace), "../etc/passwd.md"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "refused" in captured.err
    assert (
        main(
            [
                "get",
                "--workspace",
                str(workspace),
                "memory/2026-03-02.md",
                "--from",
                "4",
                "--lines",
                "1",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["text"] == "- 路由器管理端口先用 8080。" and data["path"] == "memory/2026-03-02.md"


def test_a_write_by_savenow_updates_the_index_at_once(search: MemorySearch, workspace: Path) -> None:
    # The service wires savenow's writes to the index (storage cannot import search); register
    # the same listener here so this test does not depend on another test having built a service.
    on_committed_change(note_memory_write)
    search.search("证书")  # builds the index
    target = workspace / "memory" / "2026-06-01.md"
    write_entries(
        target,
        [Entry(title="打印机", bullets=["打印机墨盒型号 HP-680"])],
        workspace=workspace,
        now=datetime(2026, 6, 1, 10, 0).astimezone(),
        day=date(2026, 6, 1),
    )
    db = sqlite3.connect(index_path(workspace))
    texts = [row[0] for row in db.execute("SELECT text FROM chunks WHERE path = 'memory/2026-06-01.md'")]
    db.close()
    assert any("HP-680" in text for text in texts)  # indexed by the write itself, before any search
    assert search.search("打印机墨盒").results[0].path == "memory/2026-06-01.md"


def test_an_edited_or_deleted_file_is_seen_by_the_next_search(search: MemorySearch, workspace: Path) -> None:
    assert search.search("证书").results
    note = workspace / "memory" / "2026-05-20.md"
    note.write_text(note.read_text(encoding="utf-8").replace("证书", "执照"), encoding="utf-8")
    os.utime(note, ns=(1, 1))  # a different mtime even on a coarse clock
    assert all(r.path != "memory/2026-05-20.md" for r in search.search("证书到期").results)
    assert search.search("执照").results[0].path == "memory/2026-05-20.md"
    note.unlink()
    assert search.search("执照").results == []
    db = sqlite3.connect(index_path(workspace))
    orphans = db.execute("SELECT count(*) FROM postings WHERE chunk_id NOT IN (SELECT id FROM chunks)")
    assert orphans.fetchone()[0] == 0  # re-tokenizing the old chunks removed exactly their postings
    db.close()


def test_an_unchanged_workspace_reindexes_nothing(search: MemorySearch) -> None:
    first = search.sync()
    assert len(first.indexed) == 4
    assert search.sync().indexed == []
    again = MemorySearch(search.workspace, SearchOptions(), today=TODAY)
    assert again.sync().indexed == []


def test_a_corrupt_index_is_rebuilt(workspace: Path) -> None:
    path = index_path(workspace)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database" * 100)
    assert MemorySearch(workspace, today=TODAY).search("证书").results


def test_an_index_from_a_newer_savenow_is_rebuilt(workspace: Path) -> None:
    MemorySearch(workspace, today=TODAY).search("证书")
    db = sqlite3.connect(index_path(workspace))
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    db.commit()
    db.close()
    assert MemorySearch(workspace, today=TODAY).search("证书").results
    db = sqlite3.connect(index_path(workspace))
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_changing_the_chunking_rebuilds_the_index(workspace: Path) -> None:
    MemorySearch(workspace, today=TODAY).sync()
    report = MemorySearch(workspace, SearchOptions(chunk_tokens=200), today=TODAY).sync()
    assert report.rebuilt and len(report.indexed) == 4


def test_sessions_are_searched_when_opted_in(workspace: Path, tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    lines = [
        {"type": "session", "id": "s1"},
        {
            "type": "message",
            "message": {"role": "user", "content": [{"type": "text", "text": "打印机又卡纸了"}]},
        },
        {"type": "message", "message": {"role": "assistant", "content": "试试清理搓纸轮"}},
    ]
    (sessions / "s1.jsonl").write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n")
    options = SearchOptions(sources=("memory", "sessions"), sessions_dir=sessions)
    hit = MemorySearch(workspace, options, today=TODAY).search("打印机卡纸").results[0]
    assert hit.path == "sessions/s1.jsonl" and hit.source == "sessions"
    assert hit.start_line <= 2 <= hit.end_line
    assert MemorySearch(workspace, today=TODAY).search("打印机卡纸").results == []


def test_a_long_lived_search_may_space_out_full_scans(workspace: Path) -> None:
    now = [100.0]
    engine = MemorySearch(
        workspace, SearchOptions(rescan_interval_s=5), today=TODAY, monotonic=lambda: now[0]
    )
    assert engine.search("证书").results
    (workspace / "memory" / "2026-05-31.md").write_text("## 打印机\n- 打印机墨盒 HP-680\n", encoding="utf-8")
    assert engine.search("打印机墨盒").results == []  # within the interval: not scanned yet
    now[0] += 5
    assert engine.search("打印机墨盒").results[0].path == "memory/2026-05-31.md"


def test_undo_updates_the_index_at_once(search: MemorySearch, workspace: Path) -> None:
    from savenow.search.hooks import note_memory_write
    from savenow.storage.journal import on_committed_change, undo_last

    on_committed_change(note_memory_write)  # what the service registers
    search.search("证书")
    target = workspace / "memory" / "2026-06-01.md"
    write_entries(
        target,
        [Entry(title="打印机", bullets=["打印机墨盒型号 HP-680"])],
        workspace=workspace,
        now=datetime(2026, 6, 1, 10, 0).astimezone(),
        day=date(2026, 6, 1),
    )
    db = sqlite3.connect(index_path(workspace))
    indexed = db.execute("SELECT count(*) FROM chunks WHERE path = 'memory/2026-06-01.md'").fetchone()[0]
    db.close()
    assert indexed > 0  # the write was indexed, so the check below can fail
    undo_last(workspace)
    db = sqlite3.connect(index_path(workspace))
    rows = db.execute("SELECT count(*) FROM chunks WHERE path = 'memory/2026-06-01.md'").fetchone()[0]
    db.close()
    assert rows == 0 and search.search("打印机墨盒").results == []


def test_an_index_damaged_while_open_is_rebuilt_on_the_next_search(workspace: Path) -> None:
    engine = MemorySearch(workspace, today=TODAY)
    assert engine.search("证书").results
    store = engine._open().store
    store.db.execute("DROP TABLE postings")  # as if the file lost a table under us
    assert engine.search("证书").results


def test_searches_from_several_threads_take_turns(search: MemorySearch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda q: search.search(q).results[0].path, ["证书", "照片备份", "Tom"] * 4))
    assert answers[:3] == ["memory/2026-05-20.md", "memory/2026-04-11.md", "MEMORY.md"]
    assert answers == answers[:3] * 4
