"""The shortcuts that make compaction and status fast give the answers of the long way round."""

from __future__ import annotations

import json

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


def test_a_commit_reuses_what_load_parsed_but_never_over_a_changed_file(tmp_path):
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

    snapshot = store.load()
    store.commit(snapshot, compaction(snapshot))
    data = json.loads(path.read_text())
    assert data["note"] == "kept as it was"
    assert [m["content"] for m in data["messages"][1:]] == [m["content"] for m in other["messages"][6:]]
    assert data["messages"][0]["content"] == "S" and data["compactionCount"] == 1
