"""Sixth-round rules of the offline extractor (found on a new author's blind set, fresh9), each in Chinese
and in English with made-up phrasings (people, projects and numbers of no evaluation case): a correction
word in the middle of a message, a clause that gives a thing's identifier, a payment word inside an
identifier, and a birthday said as a milestone birthday."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from savenow.objects.heuristic import _corrected_value, _names_identifier, _pays

from .test_offline_rules import _extract, _person, _text, _topic


def _writes_of(objects: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [o for o in objects if o["type"] == kind and o["op"] != "skip"]


# -- a correction mid-message: the value after the correction word replaces the old one ----------------------


@pytest.mark.parametrize(
    ("old", "correction", "new"),
    [("提醒我提前 15 分钟", "嗯 15 分钟有点赶 改成 2 小时", "提醒我提前 2 小时"),
     ("remind me 2 days ahead", "hm 2 days is short, make it 4 days", "remind me 4 days ahead")],
)  # fmt: skip
def test_the_value_after_a_mid_message_correction_word_replaces_the_old(
    old: str, correction: str, new: str
) -> None:
    assert _corrected_value(old, correction) == new


def test_no_correction_word_no_replacement() -> None:
    assert _corrected_value("提醒我提前 15 分钟", "15 分钟 2 小时") is None
    assert _corrected_value("remind me 2 days ahead", "2 days or 4 days") is None


@pytest.mark.parametrize(
    ("chat", "new", "old"),
    [(["以后提醒我提前 15 分钟就行", "好的。", "嗯 15 分钟有点赶 改成 2 小时", "好的，2 小时。"], "2 小时", "15 分钟"),
     (["please remind me 2 days ahead from now on", "Sure.", "hm 2 days is short, make it 4 days", "OK, 4 days."],
      "4 days", "2 days")],
)  # fmt: skip
def test_a_rule_corrected_mid_message_keeps_only_the_new_value(
    tmp_path: Path, chat: list[str], new: str, old: str
) -> None:
    [rule] = [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] == "reminders"]
    assert new in _text(rule) and old not in _text(rule)


# -- identifiers: a clause naming one outlasts the day it was said on -----------------------------------------


@pytest.mark.parametrize(
    ("text", "named"),
    [("namespace 是 orca-live", True), ("the bucket is logs-west-two", True), ("备份在 dump_1107.tar", True),
     ("docs at /team/handbook", True), ("rolled back to v2.4.1", False), ("e.g. tomorrow", False),
     ("train K1187", False), ("order SF99812", False)],
)  # fmt: skip
def test_an_identifier_has_a_word_after_its_joiner(text: str, named: bool) -> None:
    assert _names_identifier(text) is named


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["Kestrel 这周迁到新集群了，namespace 是 orca-live", "好的。", "旧机器 kes-old-2 下周下线", "好。"],
      ["orca-live", "kes-old-2"]),
     (["Kestrel moved to the new cluster this week, namespace is orca-live", "Nice.",
       "the old box kes-old-2 goes away next week", "OK."], ["orca-live", "kes-old-2"])],
)  # fmt: skip
def test_a_topics_identifiers_are_kept_though_said_with_a_day(
    tmp_path: Path, chat: list[str], word: list[str]
) -> None:
    [topic] = _writes_of(_extract(tmp_path, chat, [_topic("Kestrel")]), "topic")
    assert all(w in _text(topic) for w in word)


@pytest.mark.parametrize(("text", "pays"), [("namespace pay-live", False), ("I paid the deposit", True),
                                            ("付了定金", True), ("repo pay_gateway", False)])  # fmt: skip
def test_a_payment_word_inside_an_identifier_is_no_payment(text: str, pays: bool) -> None:
    assert _pays(text) is pays


# -- a milestone birthday is a birthday -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "name", "word"),
    [(["对了 爷爷八十大寿是明年五月六号", "真好！"], "爷爷", "五月六"),
     (["btw grandpa's birthday is on june 3", "Nice!"], "grandpa", "june 3")],
)  # fmt: skip
def test_a_milestone_birthday_is_a_fact_about_the_person(
    tmp_path: Path, chat: list[str], name: str, word: str
) -> None:
    [person] = _writes_of(_extract(tmp_path, chat, [_person(name, relation=name)]), "relationship")
    assert word in _text(person)


# -- who moved: a thing moving is no city of the user's -------------------------------------------------------


@pytest.mark.parametrize("chat", [["Kestrel 的服务器搬到杭州机房了", "好的。"], ["服务器搬到杭州机房了", "好的。"],
                                  ["Kestrel moved to the Lisbon servers", "OK."]])  # fmt: skip
def test_a_thing_that_moved_is_no_city_of_the_user(tmp_path: Path, chat: list[str]) -> None:
    assert not [
        o for o in _writes_of(_extract(tmp_path, chat, [_topic("Kestrel")]), "self") if o["key"] == "city"
    ]


@pytest.mark.parametrize("chat", [["我上个月搬到杭州了", "好的。"], ["我到杭州了，正式搬过来了", "欢迎！"],
                                  ["I moved to Lisbon last month", "Nice."]])  # fmt: skip
def test_the_user_who_moved_still_gives_a_city(tmp_path: Path, chat: list[str]) -> None:
    assert [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] == "city"]


# -- a zone's English name in a Chinese sentence; a dropped subject on a habit word -----------------------------


@pytest.mark.parametrize("chat", [["我搬到 Lisbon 了，以后时间都按 Lisbon time", "好的。"],
                                  ["I moved to Lisbon, all my times are Lisbon time now", "OK."]])  # fmt: skip
def test_a_moved_user_gives_city_and_timezone(tmp_path: Path, chat: list[str]) -> None:
    keys = {o["key"] for o in _writes_of(_extract(tmp_path, chat), "self")}
    assert {"city", "timezone"} <= keys


@pytest.mark.parametrize(
    "chat",
    [["平时用 Neovim + tmux，语言主要 Go", "了解。"], ["I mainly use Neovim and tmux, mostly Go", "OK."]],
)
def test_a_habit_opening_is_the_speakers_tools(tmp_path: Path, chat: list[str]) -> None:
    [tools] = [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] == "tools"]
    assert "Neovim" in _text(tools)


def test_someone_elses_habit_is_not_the_users_tools(tmp_path: Path) -> None:
    objs = _extract(tmp_path, ["他平时用 Neovim", "好的。"])
    assert not [o for o in _writes_of(objs, "self") if o["key"] == "tools"]


# -- a new person introduced by role: a title before the name, a dropped "my" ---------------------------------


@pytest.mark.parametrize(
    ("chat", "name", "word"),
    [(["also my advisor is Dr. Lindqvist, she wants slides as PDF only", "Got it."], "Dr. Lindqvist", "PDF"),
     (["partner is Tomas, he handles the payroll", "OK."], "Tomas", "payroll"),
     (["我导师是周明远，她只看 PDF 版", "好的。"], "周明远", "PDF")],
)  # fmt: skip
def test_a_person_introduced_by_role_is_created_under_the_full_name(
    tmp_path: Path, chat: list[str], name: str, word: str
) -> None:
    people = _writes_of(_extract(tmp_path, chat), "relationship")
    assert [p["name"] for p in people] == [name]
    assert word in _text(people[0])
