"""OpenClaw's SQLite-era store: layouts of schema 8 and 24, windows, archives, a live writer, read-only always."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from savenow.errors import UnsupportedSessionStoreError
from savenow.sessions.resolve import SessionCatalog
from savenow.sessions.sqlite_store import OpenClawSqliteStore
from savenow.sessions.store import ChatIndex, SessionStore, UserMessageProbe, WritableStore

from .shapegen import mirror, reset
from .sqlitegen import SqliteStoreBuilder
from .storegen import GROUP, assistant, conversation, tool_result, topic_key, user


def _texts(store: OpenClawSqliteStore, key: str, limit: int = 150) -> list[str]:
    info = store.get(key)
    assert info is not None, key
    return [m.text for m in store.read_messages(info, limit).messages]


@pytest.mark.parametrize("schema", [8, 24])
def test_a_topic_session_with_a_reset_and_a_mirror(tmp_path: Path, schema: int) -> None:
    builder = SqliteStoreBuilder(tmp_path, schema=schema)
    builder.add(
        topic_key(7),
        [
            user("before the reset: use the old key"),
            reset("new"),
            user("the staging db moved to db2"),
            assistant("Noted: staging is on db2."),
            mirror("Noted: staging is on db2."),
        ],
        chatType="group",
        deliveryContext={"channel": "telegram", "to": f"telegram:{GROUP}", "threadId": 7},
    )
    store = OpenClawSqliteStore(builder.write())
    assert isinstance(store, SessionStore) and isinstance(store, ChatIndex)
    assert isinstance(store, UserMessageProbe) and not isinstance(store, WritableStore)
    assert _texts(store, topic_key(7)) == ["the staging db moved to db2", "Noted: staging is on db2."]
    info = SessionCatalog([store]).resolve(chat_id=GROUP, thread_id="7", chat_type="group")
    assert (info.key, info.source, info.chat_id, info.thread_id) == (
        topic_key(7),
        "openclaw-sqlite",
        GROUP,
        "7",
    )


def test_compressed_events_are_read(tmp_path: Path) -> None:
    long_answer = "Runbook: " + "restart the gateway after rotating the token; " * 60  # > 1 KiB: compressed
    builder = SqliteStoreBuilder(tmp_path, schema=24)
    builder.add(topic_key(7), [user("how do I rotate it?"), assistant(long_answer), tool_result("x" * 5000)])
    db = builder.write()
    with closing(sqlite3.connect(db)) as conn, conn:
        compressed = conn.execute(
            "SELECT count(*) FROM transcript_events WHERE event_json IS NULL"
        ).fetchone()[0]
    assert compressed == 2  # the answer and the tool result live only in event_zstd
    assert _texts(OpenClawSqliteStore(db), topic_key(7)) == ["how do I rotate it?", long_answer.strip()]


def test_a_damaged_compressed_event_is_skipped_and_counted(tmp_path: Path) -> None:
    builder = SqliteStoreBuilder(tmp_path, schema=24)
    builder.add(topic_key(7), [user("fine"), assistant("y" * 2000)])
    db = builder.write()
    with closing(sqlite3.connect(db)) as conn, conn:  # the recorded size no longer matches the frame
        conn.execute("UPDATE transcript_events SET event_utf8_bytes = 10 WHERE event_json IS NULL")
    store = OpenClawSqliteStore(db)
    info = store.get(topic_key(7))
    assert info is not None
    transcript = store.read_messages(info, 150)
    assert [m.text for m in transcript.messages] == ["fine"] and transcript.malformed_lines == 1


def test_archived_sessions_are_skipped_even_under_a_similar_key(tmp_path: Path) -> None:
    builder = SqliteStoreBuilder(tmp_path)
    builder.add(topic_key(7), [user("live topic"), assistant("ok")], updated_at=1_000, chatType="group")
    builder.add(
        topic_key(7) + ":v2",
        [user("archived copy")],
        updated_at=9_000,  # newer: it would win were it not archived
        archived=True,
        chatType="group",
        deliveryContext={"threadId": 7},
    )
    store = OpenClawSqliteStore(builder.write())
    assert [info.key for info in store.list_sessions()] == [topic_key(7)]
    assert store.get(topic_key(7) + ":v2") is None
    assert SessionCatalog([store]).resolve(chat_id=GROUP, thread_id="7", chat_type="group").key == topic_key(
        7
    )


def test_a_second_window_under_the_same_key(tmp_path: Path) -> None:
    builder = SqliteStoreBuilder(tmp_path)
    builder.window(topic_key(7), "w-old", conversation(2, prefix="old"), reason="initial")
    builder.add(topic_key(7), [user("new window")], session_id="w-new", reason="reset", previous="w-old")
    builder.window(topic_key(8), "r-old", conversation(1, prefix="first"), reason="initial")
    builder.add(topic_key(8), [user("continued")], session_id="r-new", reason="rollover", previous="r-old")
    store = OpenClawSqliteStore(builder.write())
    assert [info.key for info in store.list_sessions()].count(topic_key(7)) == 1
    assert _texts(store, topic_key(7)) == ["new window"]  # a reset window starts a new conversation
    assert _texts(store, topic_key(8)) == [
        "first user 0",
        "first assistant 0",
        "continued",
    ]  # rollover continues
    assert _texts(store, topic_key(8), limit=1) == ["continued"]


@pytest.mark.parametrize("storage", ["sqlite", "file"])
def test_a_window_in_a_cold_archive_is_not_empty(tmp_path: Path, storage: str) -> None:
    builder = SqliteStoreBuilder(tmp_path, schema=24)
    builder.add(topic_key(7), None, session_id="cold-1", chatType="group")
    builder.cold_archive("cold-1", [user("archived question"), assistant("archived answer")], storage=storage)
    store = OpenClawSqliteStore(builder.write())
    info = store.get(topic_key(7))
    assert info is not None and store.probe_user_message(info)
    assert _texts(store, topic_key(7)) == ["archived question", "archived answer"]


def test_no_user_message_is_not_a_candidate(tmp_path: Path) -> None:
    builder = SqliteStoreBuilder(tmp_path)
    builder.add(topic_key(7), [assistant("only the bot spoke")], chatType="group")
    store = OpenClawSqliteStore(builder.write())
    assert SessionCatalog([store]).candidates(GROUP, "7") == []


def test_unknown_layouts_are_refused_naming_the_version(tmp_path: Path) -> None:
    old = tmp_path / "old" / "openclaw-agent.sqlite"
    old.parent.mkdir()
    with closing(sqlite3.connect(old)) as conn, conn:  # schema 1: cache and auth, no session tables
        conn.executescript(
            "CREATE TABLE schema_meta (meta_key TEXT PRIMARY KEY, role TEXT, schema_version INTEGER, "
            "agent_id TEXT, app_version TEXT, created_at INTEGER, updated_at INTEGER);"
            "INSERT INTO schema_meta VALUES ('primary', 'agent', 1, 'main', '2026.6.1', 0, 0);"
            "CREATE TABLE cache_entries (scope TEXT, key TEXT);"
        )
    with pytest.raises(UnsupportedSessionStoreError) as caught:
        OpenClawSqliteStore(old).list_sessions()
    assert "schema 1" in caught.value.en and str(old) in caught.value.en and "schema 1" in caught.value.zh

    builder = SqliteStoreBuilder(tmp_path / "new", schema=24)
    builder.add(topic_key(7), [user("hi")])
    db = builder.write(meta_version=31)
    with (
        closing(sqlite3.connect(db)) as conn,
        conn,
    ):  # a future layout that renamed a column this reader needs
        conn.execute("ALTER TABLE session_nodes RENAME COLUMN current_session_id TO head_window_id")
    with pytest.raises(UnsupportedSessionStoreError) as caught:
        OpenClawSqliteStore(db).list_sessions()
    assert "schema 31" in caught.value.en and "session_nodes.current_session_id" in caught.value.en


def test_a_newer_schema_with_the_needed_columns_is_read(tmp_path: Path) -> None:
    builder = SqliteStoreBuilder(tmp_path, schema=24)
    builder.add(topic_key(7), [user("still readable")])
    store = OpenClawSqliteStore(builder.write(meta_version=25))
    assert _texts(store, topic_key(7)) == ["still readable"]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_reading_creates_and_changes_nothing(tmp_path: Path) -> None:
    builder = SqliteStoreBuilder(tmp_path)
    builder.add(topic_key(7), [user("hi"), assistant("hello")], chatType="group")
    db = builder.write()
    before = sorted(p.name for p in db.parent.iterdir()), _digest(db)
    store = OpenClawSqliteStore(db)
    store.list_sessions()
    info = store.get(topic_key(7))
    assert info is not None and store.probe_user_message(info)
    store.read_messages(info, 150)
    assert (sorted(p.name for p in db.parent.iterdir()), _digest(db)) == before  # no -wal, no -shm


def test_a_live_writer_holding_a_write_transaction(tmp_path: Path) -> None:
    """OpenClaw mid-write (WAL, the database open): savenow reads the last committed state at once."""
    builder = SqliteStoreBuilder(tmp_path)
    builder.add(topic_key(7), [user("committed")], chatType="group")
    db = builder.write()
    writer = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute(
            "INSERT INTO transcript_events VALUES ((SELECT current_session_id FROM session_nodes), 99, ?, 0, NULL, "
            "NULL, NULL)",
            (json.dumps(user("uncommitted")),),
        )
        store = OpenClawSqliteStore(db, busy_timeout_s=5)
        assert _texts(store, topic_key(7)) == ["committed"]
        wal_files = {p.name for p in db.parent.iterdir()}
        writer.execute("COMMIT")
    finally:
        writer.close()
    assert {db.name + "-wal", db.name + "-shm"} <= wal_files  # the writer's, not ours


def test_a_locked_database_is_retried_until_the_writer_lets_go(tmp_path: Path) -> None:
    """A writer holding an exclusive lock (rollback-journal mode): the read retries and then succeeds."""
    builder = SqliteStoreBuilder(tmp_path, schema=8)
    builder.add(topic_key(7), [user("after the lock")], chatType="group")
    db = builder.write()
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("PRAGMA journal_mode=DELETE")
    locked, retried, released = threading.Event(), threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        writer = sqlite3.connect(db, isolation_level=None)
        writer.execute("BEGIN EXCLUSIVE")
        locked.set()
        retried.wait(timeout=30)  # released once savenow has met the lock and is retrying
        writer.execute("COMMIT")
        writer.close()
        released.set()

    thread = threading.Thread(target=hold_the_lock)
    thread.start()
    assert locked.wait(timeout=30)
    attempts: list[int] = []

    def on_retry(attempt: int) -> None:
        attempts.append(attempt)
        retried.set()
        released.wait(timeout=30)  # the next attempt runs after the writer committed

    store = OpenClawSqliteStore(db, busy_timeout_s=0.01, on_retry=on_retry)
    try:
        rows = store.list_sessions()
    finally:
        retried.set()
        thread.join(timeout=30)
    assert attempts and [info.key for info in rows] == [topic_key(7)]


def test_the_main_key_alias_of_the_key_contract(tmp_path: Path) -> None:
    builder = SqliteStoreBuilder(tmp_path)
    builder.add("agent:main:personal", [user("my own main session")])
    db = builder.write()
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE session_key_contract SET main_key = 'personal'")
    store = OpenClawSqliteStore(db)
    assert _texts(store, "agent:main:main") == ["my own main session"]


@pytest.mark.parametrize("schema", [8, 24])
def test_real_shapes_in_the_sqlite_era(tmp_path: Path, schema: int) -> None:
    from .shapegen import MEDIA, failed_turn, leaf, queued, typeless

    kept = user("use postgres 16")
    builder = SqliteStoreBuilder(tmp_path, schema=schema)
    builder.add(
        topic_key(7),
        [
            typeless("user", "an old typeless line"),
            kept,
            assistant("Installing mysql…"),
            leaf(kept["id"]),
            assistant("[[reply_to_current]]Postgres 16 is up."),
            user(MEDIA + "is this the right dashboard?"),
            failed_turn(),
            user(MEDIA + "is this the right dashboard?"),
            user(queued("and the backups run nightly")),
        ],
    )
    store = OpenClawSqliteStore(builder.write())
    assert _texts(store, topic_key(7)) == [
        "an old typeless line",
        "use postgres 16",
        "Postgres 16 is up.",
        "is this the right dashboard?",
        "and the backups run nightly",
    ]


def test_a_writer_arriving_during_an_immutable_read_sends_it_again_the_live_way(tmp_path: Path) -> None:
    builder = SqliteStoreBuilder(tmp_path)
    builder.add(topic_key(7), [user("hi")], label="before")
    db = builder.write()
    store = OpenClawSqliteStore(db)
    writers: list[sqlite3.Connection] = []

    def work(conn: sqlite3.Connection, layout: object) -> str:
        if not writers:  # the first, immutable read: OpenClaw opens the database and commits meanwhile
            writer = sqlite3.connect(db, isolation_level=None)
            writer.execute("UPDATE session_nodes SET label = 'after'")
            writers.append(writer)
            return "stale"
        return str(conn.execute("SELECT label FROM session_nodes").fetchone()[0])

    try:
        assert store._read(work) == "after"
    finally:
        for writer in writers:
            writer.close()
