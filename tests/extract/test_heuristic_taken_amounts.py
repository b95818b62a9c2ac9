"""The assistant's reply that repeats an amount the user just gave takes that fact down: one note, not two
(notes._takes_down_amount)."""

from __future__ import annotations

from savenow.extract.heuristic.notes import _related
from savenow.extract.heuristic.statements import Statement
from tests.extract.support import chat, extract, saved, text_of


def _said(message: int, role: str, text: str) -> Statement:
    return Statement(message=message, role=role, text=text, bullet=text, ids=frozenset())


def test_a_value_and_the_reply_repeating_it_are_one_note_zh() -> None:
    messages = chat(
        "u: 代码风格统一一下",
        "a: 好的，用 ruff 吗？",
        "u: 对 ruff，line-length 现在定 100 了",
        "a: 好的，以 100 为准。",
        "u: 嗯",
    )
    texts = [text_of(e) for e in saved(extract(messages))]
    assert sum("100" in t for t in texts) == 1


def test_an_amount_the_reply_repeats_relates_the_two_sentences_en() -> None:
    user = _said(2, "user", "emergency fund target is 12000 now, in the Ally savings account")
    reply = _said(3, "assistant", "Okay, $12,000 it is.")
    assert _related(user, reply) and _related(reply, user)


def test_an_amount_said_later_or_by_the_user_again_does_not_relate_en() -> None:
    user = _said(2, "user", "emergency fund target is 12000 now")
    later = _said(5, "assistant", "Okay, $12,000 it is.")
    again = _said(3, "user", "and 12000 for the car fund too")
    assert not _related(user, later)
    assert not _related(user, again)
