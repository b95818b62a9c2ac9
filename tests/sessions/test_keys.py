import pytest

from savenow.errors import InvalidSessionKeyError
from savenow.sessions.keys import (
    chat_id_from_key,
    is_excluded_key,
    telegram_session_key,
    thread_id_from_key,
    validate_session_key,
)


@pytest.mark.parametrize(
    "key",
    [
        "agent:main:main",
        "agent:main:telegram:group:-1001234567890:topic:42",
        "agent:main:telegram:direct:12345",
        "  agent:main:telegram:group:-100:topic:1  ",
    ],
)
def test_valid_keys_pass(key: str) -> None:
    assert validate_session_key(key) == key.strip()


@pytest.mark.parametrize(
    "key",
    [
        "",
        "   ",
        "../sessions.json",
        "/etc/passwd",
        "agent:main/../../x",
        "a..b",
        "C:\\Users\\x",
        "agent:main:\x00",
        "agent:\nmain",
        "agent main",
        "a" * 257,
    ],
)
def test_invalid_keys_refused(key: str) -> None:
    with pytest.raises(InvalidSessionKeyError) as caught:
        validate_session_key(key)
    assert caught.value.en and caught.value.zh != caught.value.en
    assert "\x00" not in caught.value.en


def test_path_like_message_says_what_a_key_looks_like() -> None:
    with pytest.raises(InvalidSessionKeyError, match="looks like a path"):
        validate_session_key("../../memory/MEMORY.md")


def test_key_length_bound_is_inclusive() -> None:
    assert validate_session_key("k" * 256)


def test_telegram_keys() -> None:
    assert (
        telegram_session_key("main", chat_type="group", chat_id="-100", thread_id=7)
        == "agent:main:telegram:group:-100:topic:7"
    )
    assert telegram_session_key("main", chat_type="group", chat_id=-100) == "agent:main:telegram:group:-100"
    assert telegram_session_key("ops", chat_type="direct", user_id=42) == "agent:ops:telegram:direct:42"
    assert telegram_session_key("ops", chat_type="direct", chat_id="42") == "agent:ops:telegram:direct:42"


@pytest.mark.parametrize(
    ("key", "excluded"),
    [
        ("agent:main:telegram:slash:123", True),
        ("cron:daily-report", True),
        ("agent:main:cron:job1:run:2", True),
        ("hook:0b7e4d2c-1111-2222-3333-444455556666", True),
        ("node-abc123", True),
        ("agent:main:subagent:5f1c", True),
        ("agent:main:main:heartbeat", True),
        ("agent:main:telegram:group:-100:topic:42", False),
        ("agent:main:telegram:direct:5", False),
        ("agent:main:main", False),
    ],
)
def test_exclusions(key: str, excluded: bool) -> None:
    assert is_excluded_key(key) is excluded


def test_key_parsing() -> None:
    key = "agent:main:telegram:group:-100123:topic:42"
    assert thread_id_from_key(key) == "42"
    assert chat_id_from_key(key) == "-100123"
    assert chat_id_from_key("agent:main:telegram:direct:77") == "77"
    assert chat_id_from_key("agent:main:main") is None
    assert thread_id_from_key("agent:main:telegram:group:-100123") is None
