"""Parsing and validating what a model answers, without a server."""

from __future__ import annotations

import pytest

from savenow.extract.llm import InvalidReplyError, entries_from_reply, parse_reply, redact
from savenow.messages import localize

ENTRY = {"title": "Nginx upload limit", "bullets": ["files.conf sets client_max_body_size 200m"]}


@pytest.mark.parametrize(
    "content",
    [
        '{"entries": [{"title": "Nginx upload limit", "bullets": ["b"]}]}',
        '[{"title": "Nginx upload limit", "bullets": ["b"]}]',
        '{"title": "Nginx upload limit", "bullets": ["b"]}',
        'Result:\n```json\n{"entries": [{"title": "Nginx upload limit", "bullets": ["b"]}]}\n```',
        'I think {not json} then {"entries": [{"title": "Nginx upload limit", "bullets": ["b"]}]}',
    ],
)
def test_accepted_shapes(content: str) -> None:
    assert parse_reply(content)[0]["title"] == "Nginx upload limit"


@pytest.mark.parametrize(
    "content",
    ["", "   ", "no json here", '{"notes": 3}', "[1, 2, 3]", '{"entries": "none"}', "<think>{}</think>"],
)
def test_unusable_answers(content: str) -> None:
    with pytest.raises(InvalidReplyError):
        parse_reply(content)


def test_malformed_items_are_dropped_not_fatal() -> None:
    result = entries_from_reply([ENTRY, {"title": "Bad", "bullets": [{"nested": 1}]}, "a string"])

    assert [e.title for e in result.entries] == ["Nginx upload limit"]
    assert [d.title for d in result.dropped] == ["Bad", "(entry 3)"]
    assert all(localize(d.reason).startswith("malformed entry") for d in result.dropped)


def test_a_bullet_string_and_missing_fields_are_read_leniently() -> None:
    result = entries_from_reply(
        [{"title": "T", "bullets": "- one fact", "action": None, "candidate_index": "7"}]
    )

    entry = result.entries[0]
    assert entry.bullets == ["one fact"]
    assert entry.action == "add" and entry.merge_target_title is None and entry.candidate_index == 0


def test_too_many_bullets_drops_the_entry() -> None:
    result = entries_from_reply([{"title": "T", "bullets": [f"b{i}" for i in range(11)]}])

    assert result.entries == []
    assert "at most 10" in localize(result.dropped[0].reason)


def test_redact_removes_the_key_and_key_shaped_strings() -> None:
    text = "key sk-abc123456789 rejected; Authorization: Bearer xyz.987; mine=hunter2-secret"
    cleaned = redact(text, "hunter2-secret")

    assert "sk-abc123456789" not in cleaned and "xyz.987" not in cleaned and "hunter2" not in cleaned


def test_redact_leaves_ordinary_words_alone() -> None:
    assert redact("unsupported api-version and key_format", "") == "unsupported api-version and key_format"
