"""Seventh-round rules of the offline extractor (found on a new author's blind set, fresh11), each in Chinese
and in English with made-up phrasings (people, projects and numbers of no evaluation case)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from savenow.objects.heuristic import _without_reason

from .test_offline_rules import _extract, _text


def _writes_of(objects: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [o for o in objects if o["type"] == kind and o["op"] != "skip"]


# -- a statement the user takes back right after is never kept ------------------------------------------------


@pytest.mark.parametrize(
    "chat",
    [["对了 我这阵子在戒糖 甜的都不吃", "好的，那甜点就不准备了。", "算了 戒糖就这几天 不用管"],
     ["oh and I'm avoiding dairy now", "OK, no dairy in the suggestions.", "never mind the dairy thing, doesn't matter"]],
)  # fmt: skip
def test_a_statement_the_user_takes_back_is_not_kept(tmp_path: Path, chat: list[str]) -> None:
    assert _writes_of(_extract(tmp_path, chat), "self") == []


@pytest.mark.parametrize(
    "chat",
    [["以后提醒我提前一天", "好的。周一要我帮你安排什么吗？", "提前一天就行 周一的事不用管"],
     ["from now on remind me a day ahead", "Sure. Want me to plan the move day too?", "the move day doesn't matter"]],
)  # fmt: skip
def test_declining_the_assistants_offer_takes_nothing_back(tmp_path: Path, chat: list[str]) -> None:
    [rule] = _writes_of(_extract(tmp_path, chat), "self")
    assert rule["key"] == "reminders"


# -- a reason given after a rule is no part of it ------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "key", "kept"),
    [("以后别发表情包了 看着累", "emoji_use", "以后别发表情包了"),
     ("表格都用 markdown 方便我转发", "formatting", "表格都用 markdown"),
     ("no calls before 9am, I'm usually at the pool", "quiet_hours", "no calls before 9am"),
     ("always a window seat, because I sleep on planes", "travel", "always a window seat")],
)  # fmt: skip
def test_the_reason_after_a_rule_is_cut(value: str, key: str, kept: str) -> None:
    assert _without_reason(value, key) == kept


def test_a_piece_that_states_the_rule_is_never_cut() -> None:
    assert _without_reason("I'm vegan, so recipes should be vegan", "diet") == "I'm vegan, so recipes should be vegan"
    assert _without_reason("以后回复短一点 我在地铁上看 最多三句", "reply_length").endswith("最多三句")


@pytest.mark.parametrize(
    ("chat", "reason"),
    [(["以后别用 emoji 了 看着幼稚", "好的。"], "幼稚"),
     (["please don't text me before 8am, I'm usually asleep after the night shift", "OK."], "asleep")],
)  # fmt: skip
def test_a_self_rule_keeps_no_reason(tmp_path: Path, chat: list[str], reason: str) -> None:
    [rule] = [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] in ("emoji_use", "quiet_hours")]
    assert reason not in _text(rule)
