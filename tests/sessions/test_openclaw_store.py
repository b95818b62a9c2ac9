import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from savenow.errors import BadInputError
from savenow.sessions.openclaw import OpenClawFileStore, iter_lines_backwards, transcript_has_user_message

from .storegen import (
    GROUP,
    StoreBuilder,
    assistant,
    compaction,
    conversation,
    header,
    tool_result,
    topic_key,
    user,
)


def test_missing_dir_is_an_empty_store(tmp_path: Path) -> None:
    store = OpenClawFileStore(tmp_path / "nope")
    assert store.list_sessions() == [] and store.get("agent:main:main") is None


def test_broken_sessions_json_names_the_path(tmp_path: Path) -> None:
    (tmp_path / "sessions.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(BadInputError) as caught:
        OpenClawFileStore(tmp_path).list_sessions()
    assert str(tmp_path / "sessions.json") in caught.value.en
    (tmp_path / "sessions.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(BadInputError):
        OpenClawFileStore(tmp_path).list_sessions()


def test_lenient_entries(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(
        topic_key(42),
        conversation(1),
        topic_file="42",
        updated_at=5,
        chatType="group",
        deliveryContext={"channel": "telegram", "to": f"telegram:{GROUP}", "threadId": 42, "extra": {"x": 1}},
        skillsSnapshot={"prompt": "..."},
        someFutureField=[1, 2, 3],
    )
    builder.entries["agent:main:broken"] = {"updatedAt": 1}  # no sessionId: skipped, not fatal
    builder.entries["agent:main:notadict"] = "x"
    builder.write()
    store = OpenClawFileStore(tmp_path)
    info = store.get(topic_key(42))
    assert info is not None
    assert info.thread_id == "42" and info.chat_id == GROUP and info.chat_type == "group"
    assert info.transcript_path is not None and info.transcript_path.name.endswith("-topic-42.jsonl")
    assert store.get("agent:main:broken") is None and store.skipped_entries == 2


def test_chat_and_thread_from_delivery_context_when_key_lacks_them(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(
        "agent:main:custom-label",
        conversation(1),
        deliveryContext={"channel": "telegram", "to": "telegram:group:-100777", "threadId": "9"},
        lastThreadId=10,
        origin={"threadId": 9.0},
    )
    builder.write()
    info = OpenClawFileStore(tmp_path).get("agent:main:custom-label")
    assert info is not None and info.chat_id == "-100777" and info.thread_ids == ("9", "10")


def test_session_file_relative_absolute_and_escaping(tmp_path: Path) -> None:
    store_dir = tmp_path / "sessions"
    builder = StoreBuilder(store_dir)
    sid = builder.add("agent:main:a", conversation(1), sessionFile="renamed.jsonl")
    (store_dir / f"{sid}.jsonl").rename(store_dir / "renamed.jsonl")
    sid_b = builder.add("agent:main:b", conversation(1))
    builder.entries["agent:main:b"]["sessionFile"] = str(store_dir / f"{sid_b}.jsonl")
    (tmp_path / "outside.jsonl").write_text(json.dumps(user("secret")) + "\n", encoding="utf-8")
    builder.add("agent:main:c", None, sessionFile="../outside.jsonl")
    builder.add("agent:main:d", None, session_id="../../etc/passwd")
    builder.write()
    store = OpenClawFileStore(store_dir)
    assert store.get("agent:main:a").transcript_path == store_dir / "renamed.jsonl"
    assert store.get("agent:main:b").transcript_path == store_dir / f"{sid_b}.jsonl"
    assert store.get("agent:main:c").transcript_path is None  # never read outside the folder
    assert store.get("agent:main:d").transcript_path is None
    assert store.read_messages(store.get("agent:main:c"), 10).messages == []


def test_topic_file_preferred_over_plain(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    sid = builder.add(topic_key(5), conversation(1, prefix="topic"), topic_file="5")
    with open(tmp_path / f"{sid}.jsonl", "w", encoding="utf-8") as handle:
        handle.write(json.dumps(header(sid)) + "\n" + json.dumps(user("plain file")) + "\n")
    builder.write()
    store = OpenClawFileStore(tmp_path)
    texts = [m.text for m in store.read_messages(store.get(topic_key(5)), 10).messages]
    assert texts == ["topic user 0", "topic assistant 0"]


def test_tail_limit_malformed_lines_and_tools(tmp_path: Path) -> None:
    lines: list = [
        user("first question"),
        "{broken json",
        assistant("", tool_call=True),
        tool_result("x" * 100),
    ]
    lines += ["[1, 2]", "", *conversation(3), "\x00\x01 garbage"]
    builder = StoreBuilder(tmp_path)
    builder.add("agent:main:main", lines)
    builder.write()
    store = OpenClawFileStore(tmp_path)
    info = store.get("agent:main:main")
    tail = store.read_messages(info, 4)
    assert [m.text for m in tail.messages] == [
        "msg user 1",
        "msg assistant 1",
        "msg user 2",
        "msg assistant 2",
    ]
    assert tail.malformed_lines == 1  # only the trailing garbage was reached
    everything = store.read_messages(info, 150)
    assert everything.messages[0].text == "first question"
    assert len(everything.messages) == 7
    assert everything.malformed_lines == 3
    assert everything.total_messages_seen == 9


def test_compaction_does_not_cut_the_conversation(tmp_path: Path) -> None:
    lines = [*conversation(2, prefix="before"), compaction(), *conversation(2, prefix="after")]
    builder = StoreBuilder(tmp_path)
    builder.add("agent:main:main", lines)
    builder.write()
    store = OpenClawFileStore(tmp_path)
    texts = [m.text for m in store.read_messages(store.get("agent:main:main"), 150).messages]
    assert texts[0] == "before user 0" and texts[-1] == "after assistant 1" and len(texts) == 8
    assert not any("Earlier:" in t for t in texts)


def test_a_second_header_is_a_reset_boundary(tmp_path: Path) -> None:
    lines = [*conversation(2, prefix="old"), header("again"), *conversation(1, prefix="new")]
    builder = StoreBuilder(tmp_path)
    builder.add("agent:main:main", lines)
    builder.write()
    store = OpenClawFileStore(tmp_path)
    texts = [m.text for m in store.read_messages(store.get("agent:main:main"), 150).messages]
    assert texts == ["new user 0", "new assistant 0"]


def test_store_reloads_when_sessions_json_changes(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add("agent:main:a", conversation(1))
    builder.write()
    store = OpenClawFileStore(tmp_path)
    assert [s.key for s in store.list_sessions()] == ["agent:main:a"]
    builder.add("agent:main:b", conversation(1))
    builder.entries["agent:main:b"]["label"] = "changed size"
    builder.write()
    assert {s.key for s in store.list_sessions()} == {"agent:main:a", "agent:main:b"}


def test_probe_user_message(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(header("s")) + "\n" + json.dumps(assistant("hello")) + "\n", encoding="utf-8")
    assert transcript_has_user_message(path) is False
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(user("hi")) + "\n")
    assert transcript_has_user_message(path) is True
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps(header("s")) + "\n" + (json.dumps(tool_result("y" * 1000)) + "\n") * 400)
    assert transcript_has_user_message(big, head_bytes=4096) is True  # head shows none: presumed


def test_oversized_line_is_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"first\n" + b"x" * 5000 + b"\nlast\n")
    got = list(iter_lines_backwards(path, block_bytes=256, max_line_bytes=1000))
    assert got == [b"", b"last", None, b"first"]


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=30),
    block=st.integers(min_value=1, max_value=64),
    trailing_newline=st.booleans(),
)
def test_backwards_iteration_matches_forward_split(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], block: int, trailing_newline: bool
) -> None:
    path = tmp_path_factory.mktemp("b") / "t.jsonl"
    data = b"\n".join(lines) + (b"\n" if trailing_newline and lines else b"")
    path.write_bytes(data)
    expected = list(reversed(data.split(b"\n"))) if data else []
    got = list(iter_lines_backwards(path, block_bytes=block, max_line_bytes=10_000))
    assert [g for g in got if g] == [e for e in expected if e]


def test_foreign_absolute_session_file_falls_back_to_the_conventional_name(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    sid = builder.add(topic_key(8), conversation(1), topic_file="8")
    builder.entries[topic_key(8)]["sessionFile"] = (
        f"/home/someone-else/.openclaw/agents/main/sessions/{sid}.jsonl"
    )
    builder.write()
    info = OpenClawFileStore(tmp_path).get(topic_key(8))
    assert info is not None and info.transcript_path == tmp_path / f"{sid}-topic-8.jsonl"
