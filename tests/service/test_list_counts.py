"""``list`` counts each transcript's messages once per file version (issue: start-up and list cost).

What it shows is unchanged: the count of the preview's window. A second listing (this process, or
the next one, through ``.savenow/cache/message-counts.json``) reads no unchanged transcript.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from savenow.sessions import counts as counts_module
from savenow.sessions import openclaw
from savenow.sessions.counts import MessageCounts
from savenow.sessions.store import SessionInfo, Transcript
from tests.service.conftest import GROUP, Install, Runner

TOPIC = ("--chat-id", GROUP, "--thread-id", "7")


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every transcript the file store reads, with an empty in-process count cache."""
    seen: list[Path] = []
    real = openclaw.read_transcript_tail

    def counting(path: Path, limit: int) -> Transcript:
        seen.append(path)
        return real(path, limit)

    monkeypatch.setattr(openclaw, "read_transcript_tail", counting)
    monkeypatch.setattr(counts_module, "_MEMORY", {})
    return seen


def test_a_second_list_reads_no_unchanged_transcript(
    install: Install, savenow: Runner, reads: list[Path]
) -> None:
    status, first, err = savenow("list", *TOPIC, "--json")
    assert status == 0, err
    assert reads
    reads.clear()
    counts_module._MEMORY.clear()  # the next process: only the cache file is left
    _, second, _ = savenow("list", *TOPIC, "--json")
    assert second == first
    assert reads == []
    _, third, _ = savenow("list", *TOPIC, "--json")  # this process again: from memory
    assert third == first and reads == []


def test_a_changed_transcript_is_counted_again(install: Install, savenow: Runner, reads: list[Path]) -> None:
    _, first, _ = savenow("list", *TOPIC, "--json")
    sessions = json.loads(first)["sessions"]
    newest = reads[0]
    with newest.open("a", encoding="utf-8") as handle:
        handle.write(
            json.dumps(
                {
                    "type": "message",
                    "id": "ffff0001",
                    "parentId": None,
                    "message": {"role": "user", "content": "one more thing"},
                }
            )
            + "\n"
        )
    reads.clear()
    _, second, _ = savenow("list", *TOPIC, "--json")
    assert reads == [newest]
    after = json.loads(second)["sessions"]
    assert after[0]["messages"] == sessions[0]["messages"] + 1
    assert after[1:] == sessions[1:]


def info_for(path: Path | None) -> SessionInfo:
    return SessionInfo(
        key="k",
        session_id="s",
        updated_at_ms=None,
        chat_type=None,
        thread_id=None,
        transcript_path=path,
        source="openclaw",
        has_user_message=None,
    )


def test_unusable_cache_files_and_stopped_scans_are_never_trusted(tmp_path: Path) -> None:
    state = tmp_path / "ws" / ".savenow"
    (state / "cache").mkdir(parents=True)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    calls: list[int] = []

    def read(stopped: bool = False) -> Transcript:
        calls.append(1)
        return Transcript(messages=[], scan_stopped=stopped)

    for junk in (b"not json", b"[]", b'{"version": "0:0", "counts": {}}', b'{"counts": {"x": [1]}}'):
        (state / "cache" / "message-counts.json").write_bytes(junk)
        counts_module._MEMORY.clear()
        assert MessageCounts(state).count(info_for(transcript), 150, read) == 0
    counts_module._MEMORY.clear()
    calls.clear()
    for _ in range(2):
        MessageCounts(state).count(info_for(transcript), 150, lambda: read(stopped=True))
    assert len(calls) == 2  # a scan bounded by time is not this version's count
    assert MessageCounts(state).count(info_for(None), 150, read) == 0  # SQLite: no file to key on


def test_a_read_only_workspace_still_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "ws" / ".savenow"
    state.parent.mkdir()
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    monkeypatch.setattr(counts_module, "_MEMORY", {})

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("savenow.storage.files.atomic_write", refuse)
    counts = MessageCounts(state)
    assert counts.count(info_for(transcript), 150, lambda: Transcript(messages=[])) == 0
    counts.save()  # best effort: no error
    assert not (state / "cache" / "message-counts.json").exists()
