"""The catalog: every message in both languages, with the same blanks to fill in."""

from __future__ import annotations

import string

import pytest

from savenow.errors import SessionNotFoundError
from savenow.messages import CATALOG, Text, pick_language, text


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_message_has_english_and_chinese_with_the_same_fields(key: str) -> None:
    entry = CATALOG[key]
    assert set(entry) == {"en", "zh"} and entry["en"].strip() and entry["zh"].strip()
    assert fields(entry["en"]) == fields(entry["zh"])


def test_chat_messages_hold_no_backticks() -> None:
    chat = [
        key for key in CATALOG if key.startswith(("bot.", "access.", "session.")) or key.endswith(".chat")
    ]
    assert [key for key in chat for lang in ("en", "zh") if "`" in CATALOG[key][lang]] == []


def test_an_error_carries_both_languages_and_its_key() -> None:
    error = SessionNotFoundError(Text("session.not_found", key="agent:main:x"))
    assert error.key == "session.not_found"
    assert "agent:main:x" in error.message("en") and "没有会话键" in error.message("zh-hans")
    assert str(error) == error.message("en")


def test_an_unknown_key_fails_at_once() -> None:
    with pytest.raises(KeyError):
        Text("no.such.message")


def test_language_choice() -> None:
    assert pick_language("auto", "zh-hant") == "zh" and pick_language("auto", "en-US") == "en"
    assert pick_language("en", "zh") == "en" and pick_language("zh", None) == "zh"
    assert text("bot.button_apply", "zh") == "✅ 应用"
