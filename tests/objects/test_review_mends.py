"""Mends from the session-10 review: whole numbers in restatements, the dropped reason in both languages."""

from __future__ import annotations

from savenow.objects.extract import _restates
from savenow.objects.llm import candidates_from_reply


def test_a_number_inside_a_longer_stored_number_is_still_news() -> None:
    stored = "预计 2026 年毕业，还差 8 学分"
    assert not _restates("还差 6 学分，没变", stored, "")  # 6 is not the 6 of 2026
    assert _restates("还差 8 学分，没变", stored, "")


def test_an_unusable_llm_object_is_reported_in_the_readers_language() -> None:
    candidates, dropped = candidates_from_reply([{"type": "self", "op": "create"}], [])
    assert candidates == []
    (reason,) = dropped
    assert "object 1" in reason.message("en")
    assert "对象 1" in reason.message("zh") and "object 1" not in reason.message("zh")
