"""The shortcuts that make compaction and status fast give the answers of the long way round."""

from __future__ import annotations

import json
import os

import pytest

from savenow.compaction import SessionCompactor, SessionMessage
from savenow.compaction.model import Compaction
from savenow.compaction.stores import SessionFileStore
from savenow.compaction.summary import _NAMES, statements
from savenow.errors import CompactionStoreError

from .support import conversation, msg, write_seed


def test_reading_without_ids_gives_the_same_messages_and_status(tmp_path):
    store = tmp_path / ".clawsession.json"
    messages = [
        *conversation(12),
        msg("assistant", "", 12, tool=("bash", "cat /etc/app.conf")),
        msg("tool", "x=1", 13),
    ]
    write_seed(store, messages)
    full = SessionFileStore(store).load()
    light = SessionFileStore(store).load(ids=False)
    assert all(m.id for m in full.messages) and not any(m.id for m in light.messages)
    strip = [
        (m.role, m.content, m.timestamp, m.tool_name, m.tool_input, m.usage_tokens) for m in full.messages
    ]
    assert strip == [
        (m.role, m.content, m.timestamp, m.tool_name, m.tool_input, m.usage_tokens) for m in light.messages
    ]
    assert (light.summary, light.compaction_count, light.version) == (
        full.summary,
        full.compaction_count,
        full.version,
    )
    compactor = SessionCompactor(store_path=store, max_tokens=50)
    assert compactor.status()["tokens"] == compactor.estimate_tokens(full)
    assert compactor.status()["shouldCompact"] is compactor.should_compact(full) is True


def _lines(messages: list[SessionMessage]) -> list[tuple[str, str]]:
    token = _NAMES.set(set())
    try:
        return [(line.section, line.text) for line in statements(messages, 0)[0]]
    finally:
        _NAMES.reset(token)


def test_words_said_again_after_a_name_was_learned_are_read_again():
    # Each distinct text is read once per summary, but what it says depends on the names seen
    # so far: "Omar drives …" is about a person only once the chat has named Omar.
    said = "Omar drives a blue van to work"
    messages = [
        SessionMessage("1", "user", said),
        SessionMessage("2", "assistant", "Noted."),
        SessionMessage("3", "user", "my friend Omar is coming over to help with the move"),
        SessionMessage("4", "assistant", "Great."),
        SessionMessage("5", "user", said),
    ]
    assert _lines(messages) == [
        ("people", "my friend Omar is coming over to help with the move"),
        ("people", said),
    ]
    assert _lines(messages[:1]) == []  # before the name, the same words are plain narration


def test_a_commit_reuses_what_load_parsed_but_never_over_a_changed_file(tmp_path, monkeypatch):
    path = tmp_path / ".clawsession.json"
    write_seed(path, conversation(10), note="kept as it was")
    store = SessionFileStore(path)
    snapshot = store.load()

    def compaction(snap):
        return Compaction("S", snap.messages[:6], snap.messages[6:], 100, 10, "2026-11-30T12:00:00Z")

    other = json.loads(path.read_text())
    other["messages"].append(msg("user", "written meanwhile", 30))
    path.write_text(json.dumps(other, ensure_ascii=False))  # another writer, after our load
    with pytest.raises(CompactionStoreError):
        store.commit(snapshot, compaction(snapshot))
    assert "written meanwhile" in path.read_text()

    parses = []
    parse = store._parse
    monkeypatch.setattr(store, "_parse", lambda text: parses.append(text) or parse(text))
    snapshot = store.load()
    store.commit(snapshot, compaction(snapshot))
    assert len(parses) == 1  # the commit re-read the file and, its bytes unchanged, reused the parse
    data = json.loads(path.read_text())
    assert data["note"] == "kept as it was"
    assert [m["content"] for m in data["messages"][1:]] == [m["content"] for m in other["messages"][6:]]
    assert data["messages"][0]["content"] == "S" and data["compactionCount"] == 1


def test_a_commit_parses_again_when_the_bytes_changed_under_the_same_fingerprint(tmp_path, monkeypatch):
    path = tmp_path / ".clawsession.json"
    write_seed(path, conversation(10), note="first")
    store = SessionFileStore(path)
    snapshot = store.load()
    stat = path.stat()
    path.write_text(path.read_text().replace('"first"', '"later"'))  # same size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same mtime tick
    monkeypatch.setattr("savenow.compaction.stores._fingerprint", lambda _path: snapshot.version)
    store.commit(
        snapshot,
        Compaction("S", snapshot.messages[:6], snapshot.messages[6:], 100, 10, "2026-11-30T12:00:00Z"),
    )
    assert json.loads(path.read_text())["note"] == "later"  # what another writer put there is kept


def test_status_of_a_store_loads_neither_the_summary_nor_the_flush(tmp_path):
    """`compact status --store` reads and counts: what a compaction needs stays unloaded."""
    import subprocess
    import sys

    store = tmp_path / ".clawsession.json"
    write_seed(store, conversation(6))
    heavy = [
        "savenow.compaction.summary",
        "savenow.compaction.flush",
        "savenow.compaction.llm_summary",
        "savenow.extract",
        "savenow.llm",
        "httpx",
        "pydantic",
        "hashlib",
    ]
    probe = (
        "import sys, io, contextlib\n"
        "from savenow.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main(['compact', 'status', '--store', {str(store)!r}, '--json'])\n"
        f"print(code, [m for m in {heavy!r} if m in sys.modules])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SAVENOW_CONFIG"}
    env["HOME"] = str(tmp_path)  # no config file, no settings cache of the user's
    run = [sys.executable, "-c", probe]
    subprocess.run(run, capture_output=True, text=True, env=env, check=True)  # fills the settings cache
    out = subprocess.run(run, capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "0 []", out.stderr
