import json
import multiprocessing
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from savenow.clock import Clock
from savenow.errors import InvalidSessionKeyError
from savenow.sessions.keys import telegram_session_key
from savenow.sessions.openclaw import OpenClawFileStore
from savenow.sessions.recorder import SessionRecorder
from savenow.sessions.resolve import SessionCatalog

GROUP = "-1001234567890"
TOPIC_KEY = telegram_session_key("main", chat_type="group", chat_id=GROUP, thread_id="42")


def make_recorder(root: Path, clock: Clock | None = None, gap_minutes: int = 60) -> SessionRecorder:
    clock = clock or Clock(tz=UTC, fixed=datetime(2026, 11, 26, 10, 0, tzinfo=UTC))
    return SessionRecorder(root, agent_id="main", clock=clock, idle_gap=timedelta(minutes=gap_minutes))


def record_topic(
    recorder: SessionRecorder, role: str, text: str, message_id: int, key: str = TOPIC_KEY
) -> None:
    recorder.record(
        key,
        role=role,
        text=text,
        message_id=message_id,
        chat_id=GROUP,
        chat_type="group",
        thread_id="42",
        sender="Alice" if role == "user" else None,
    )


def texts(root: Path, key: str = TOPIC_KEY) -> list[str]:
    store = OpenClawFileStore(root, source="recorder")
    info = store.get(key)
    assert info is not None
    return [m.text for m in store.read_messages(info, 150).messages]


def test_recorded_topic_is_read_back_and_resolvable(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    record_topic(recorder, "user", "网关 token 不匹配怎么办？", 1)
    record_topic(recorder, "assistant", "更新 gateway.cmd 后重启。", 2)
    assert texts(tmp_path) == ["网关 token 不匹配怎么办？", "更新 gateway.cmd 后重启。"]
    entry = json.loads((tmp_path / "sessions.json").read_text())[TOPIC_KEY]
    assert entry["chatType"] == "group" and entry["deliveryContext"]["threadId"] == "42"
    assert entry["sessionFile"].endswith("-topic-42.jsonl")
    first = (tmp_path / entry["sessionFile"]).read_text().splitlines()[0]
    assert json.loads(first)["type"] == "session" and json.loads(first)["version"] == 3
    catalog = SessionCatalog(
        [OpenClawFileStore(tmp_path / "none"), OpenClawFileStore(tmp_path, source="recorder")]
    )
    info = catalog.resolve(chat_id=GROUP, thread_id="42", chat_type="group")
    assert info.key == TOPIC_KEY and info.source == "recorder"


def test_direct_and_group_keys(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    direct = telegram_session_key("main", chat_type="direct", user_id=77)
    recorder.record(direct, role="user", text="hi", message_id=1, chat_id="77", chat_type="direct")
    group = telegram_session_key("main", chat_type="group", chat_id=GROUP)
    recorder.record(group, role="user", text="hello all", message_id=5, chat_id=GROUP, chat_type="group")
    store = OpenClawFileStore(tmp_path, source="recorder")
    assert store.get(direct).chat_id == "77" and store.get(direct).chat_type == "direct"
    assert store.get(group).thread_id is None and store.get(group).chat_id == GROUP


def test_edit_shows_the_new_text_once_in_place(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    record_topic(recorder, "user", "deploy on port 8080", 10)
    record_topic(recorder, "assistant", "noted", 11)
    assert recorder.record_edit(TOPIC_KEY, message_id=10, text="deploy on port 8443") is True
    assert recorder.record_edit(TOPIC_KEY, message_id=10, text="deploy on port 9443") is True
    assert texts(tmp_path) == ["deploy on port 9443", "noted"]
    assert recorder.record_edit(TOPIC_KEY, message_id=999, text="x") is False
    assert recorder.record_edit("agent:main:unknown", message_id=10, text="x") is False


def test_idle_gap_and_new_start_new_sessions(tmp_path: Path) -> None:
    clock = Clock(tz=UTC, fixed=datetime(2026, 11, 26, 10, 0, tzinfo=UTC))
    recorder = make_recorder(tmp_path, clock, gap_minutes=60)
    record_topic(recorder, "user", "old topic", 1)
    first = json.loads((tmp_path / "sessions.json").read_text())[TOPIC_KEY]["sessionId"]
    clock.advance(minutes=59)
    record_topic(recorder, "user", "still same", 2)
    assert json.loads((tmp_path / "sessions.json").read_text())[TOPIC_KEY]["sessionId"] == first
    clock.advance(minutes=61)
    record_topic(recorder, "user", "after a long pause", 3)
    second = json.loads((tmp_path / "sessions.json").read_text())[TOPIC_KEY]["sessionId"]
    assert second != first and texts(tmp_path) == ["after a long pause"]
    third = recorder.start_new_session(TOPIC_KEY)
    assert third not in (first, second) and texts(tmp_path) == []
    record_topic(recorder, "user", "fresh start", 4)
    assert texts(tmp_path) == ["fresh start"]
    assert recorder.record_edit(TOPIC_KEY, message_id=3, text="edit of an older session") is False
    assert len(list(tmp_path.glob("*.jsonl"))) == 3  # old transcripts are kept


def test_bad_key_and_role_refused_and_empty_text_ignored(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    with pytest.raises(InvalidSessionKeyError):
        recorder.record("../x", role="user", text="t", message_id=1, chat_id=GROUP, chat_type="group")
    with pytest.raises(ValueError):
        recorder.record(TOPIC_KEY, role="system", text="t", message_id=1, chat_id=GROUP, chat_type="group")  # type: ignore[arg-type]
    recorder.record(TOPIC_KEY, role="user", text="  ", message_id=1, chat_id=GROUP, chat_type="group")
    assert not (tmp_path / "sessions.json").exists()


def test_damaged_own_index_is_set_aside(tmp_path: Path) -> None:
    (tmp_path / "sessions.json").write_text("{oops", encoding="utf-8")
    recorder = make_recorder(tmp_path)
    record_topic(recorder, "user", "hello", 1)
    assert texts(tmp_path) == ["hello"]
    assert list(tmp_path.glob("sessions.json.broken-*"))


def test_threads_recording_several_chats_at_once(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    chats = [f"-100{n}" for n in range(4)]

    def work(chat: str) -> None:
        key = telegram_session_key("main", chat_type="group", chat_id=chat, thread_id="1")
        for index in range(25):
            recorder.record(
                key,
                role="user",
                text=f"{chat} #{index}",
                message_id=index,
                chat_id=chat,
                chat_type="group",
                thread_id="1",
            )

    threads = [threading.Thread(target=work, args=(chat,)) for chat in chats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for chat in chats:
        key = telegram_session_key("main", chat_type="group", chat_id=chat, thread_id="1")
        assert texts(tmp_path, key) == [f"{chat} #{index}" for index in range(25)]


def _record_in_process(root: str, worker: int) -> None:
    recorder = make_recorder(Path(root))
    for index in range(15):
        recorder.record(
            TOPIC_KEY,
            role="user",
            text=f"w{worker} #{index}",
            message_id=f"{worker}-{index}",
            chat_id=GROUP,
            chat_type="group",
            thread_id="42",
        )


def test_processes_share_one_session_safely(tmp_path: Path) -> None:
    make_recorder(tmp_path).start_new_session(TOPIC_KEY)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_record_in_process, args=(str(tmp_path), n)) for n in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert all(worker.exitcode == 0 for worker in workers)
    got = texts(tmp_path)
    assert sorted(got) == sorted(f"w{n} #{i}" for n in range(3) for i in range(15))
    for n in range(3):  # each writer's lines stay in its own order
        mine = [t for t in got if t.startswith(f"w{n} ")]
        assert mine == [f"w{n} #{i}" for i in range(15)]
