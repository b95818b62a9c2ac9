"""Every reader implements the written store contract (store.py); only the recorder is writable."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from savenow.clock import Clock
from savenow.sessions.openclaw import OpenClawFileStore
from savenow.sessions.recorder import SessionRecorder
from savenow.sessions.sqlite_store import OpenClawSqliteStore
from savenow.sessions.store import ChatIndex, SessionStore, UserMessageProbe, WritableStore


def test_readers_and_the_recorder_declare_their_capabilities(tmp_path: Path) -> None:
    readers = [OpenClawFileStore(tmp_path / "files"), OpenClawSqliteStore(tmp_path / "db.sqlite")]
    for reader in readers:
        assert isinstance(reader, SessionStore)
        assert isinstance(reader, ChatIndex) and isinstance(reader, UserMessageProbe)
        assert not isinstance(reader, WritableStore)  # OpenClaw's stores are read only, always
    recorder = SessionRecorder(tmp_path / "rec", agent_id="main", clock=Clock(), idle_gap=timedelta(hours=1))
    assert isinstance(recorder, WritableStore)
