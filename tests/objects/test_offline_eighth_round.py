"""Eighth-round rules of the offline extractor (found by reading the untuned sets' failures by category),
each in Chinese and in English with made-up phrasings (people, places and values of no evaluation case)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_offline_rules import _extract, _self_summary


def _self(key: str, category: str, summary: str) -> dict[str, Any]:
    return {"type": "self", "category": category, "key": key, "summary": summary}


def _ops(objects: list[dict[str, Any]], key: str) -> list[str]:
    return [o["op"] for o in objects if o["type"] == "self" and o.get("key") == key]


# -- a stored self value said again is a skip, never an update ---------------------------------------------


@pytest.mark.parametrize(
    ("chat", "before"),
    [
        # the user marks it as the same
        (["回复还是简短点 跟之前一样", "好的。", "帮我算下 37 乘 12", "444。"],
         _self("reply_length", "communication_style", "用户喜欢简短的回复")),
        (["and keep replies brief like usual", "Sure.", "what's 37 times 12", "444."],
         _self("reply_length", "communication_style", "Brief replies")),
        # the assistant's reply says it holds, or repeats the stored value
        (["以后还是叫我阿澜就行", "好的阿澜，一直是这么叫的。"], _self("nickname", "identity", "用户希望被叫作阿澜")),
        (["don't message me after 23:30", "OK, nothing between 23:30 and 06:45."],
         _self("quiet_hours", "preference", "No messages 23:30–06:45")),
    ],
)  # fmt: skip
def test_a_stored_value_said_again_is_a_skip(tmp_path: Path, chat: list[str], before: dict[str, Any]) -> None:
    assert _ops(_extract(tmp_path, chat, [before]), before["key"]) == ["skip"]


@pytest.mark.parametrize(
    ("chat", "before"),
    [
        (["以后技术问题用英文回答，其他的照旧中文", "好的。"],
         _self("language_preference", "preference", "用户希望用中文回复")),
        (["from now on quiet hours start at 22:00, not 23:30", "OK, nothing after 22:00."],
         _self("quiet_hours", "preference", "No messages 23:30–06:45")),
    ],
)  # fmt: skip
def test_a_new_rule_beside_the_stored_one_is_still_an_update(
    tmp_path: Path, chat: list[str], before: dict[str, Any]
) -> None:
    assert _ops(_extract(tmp_path, chat, [before]), before["key"]) == ["update"]


@pytest.mark.parametrize(
    "chat",
    [["对了 我还是按 Porto time 对吧", "对，Europe/Porto。"], ["I'm still on Porto time, right?", "Yes, Europe/Porto."]],
)  # fmt: skip
def test_a_zone_said_by_its_city_is_a_restated_timezone(tmp_path: Path, chat: list[str]) -> None:
    before = _self("timezone", "identity", "Europe/Porto")
    assert _ops(_extract(tmp_path, chat, [before]), "timezone") == ["skip"]


# -- an introduction: answers to the assistant's questions and a bare place ---------------------------------


@pytest.mark.parametrize(
    ("chat", "kept"),
    [(["我叫宋知微", "你好知微！做什么工作呀？", "室内设计 在一家小事务所"], "室内设计"),
     (["I'm Oskar", "Hi Oskar! What do you do for a living?", "landscape gardening, mostly private clients"],
      "landscape gardening")],
)  # fmt: skip
def test_the_answer_to_what_the_user_does_is_their_occupation(
    tmp_path: Path, chat: list[str], kept: str
) -> None:
    assert kept in _self_summary(_extract(tmp_path, chat), "occupation")


@pytest.mark.parametrize(
    "chat",
    [["我叫宋知微", "你好！", "在洛阳", "洛阳好地方。"],
     ["我叫宋知微，在洛阳，做室内设计", "了解。"]],
)  # fmt: skip
def test_a_bare_place_in_an_introduction_is_the_users_city(tmp_path: Path, chat: list[str]) -> None:
    assert "洛阳" in _self_summary(_extract(tmp_path, chat), "city")


@pytest.mark.parametrize(
    "chat",
    [["我叫宋知微", "你好！", "在开会 晚点说", "好的。"],  # a doing, not a place
     ["在洛阳", "洛阳好地方。"]],  # no introduction
)  # fmt: skip
def test_a_bare_place_elsewhere_is_no_city(tmp_path: Path, chat: list[str]) -> None:
    assert not [o for o in _extract(tmp_path, chat) if o.get("key") == "city"]


@pytest.mark.parametrize(
    "chat",
    [["最近在减脂 晚饭不吃", "加油！"], ["I'm on a diet, no dairy at dinner", "Good luck!"]],
)  # fmt: skip
def test_a_weight_loss_diet_is_a_phase_not_a_diet(tmp_path: Path, chat: list[str]) -> None:
    assert not [o for o in _extract(tmp_path, chat) if o.get("key") == "diet"]


# -- someone else's news is theirs, and a job mentioned is not yet an occupation ------------------------------


@pytest.mark.parametrize(
    "chat",
    [["Ines called. she's moving to Ghent in May. got a job at Sint-Jan, radiographer", "Great news!"],
     ["表姐要去苏州了", "恭喜她！是下个月入职吗？", "对，下个月入职，做软件测试"]],
)  # fmt: skip
def test_a_sentence_without_its_own_subject_stays_with_the_person(tmp_path: Path, chat: list[str]) -> None:
    before = [{"type": "relationship", "name": "Ines", "relation": "family", "summary": "User's cousin"},
              {"type": "relationship", "name": "表姐", "relation": "family", "summary": "用户的表姐"}]  # fmt: skip
    objects = _extract(tmp_path, chat, before)
    assert not [o for o in objects if o.get("key") == "occupation"]


def test_the_carried_sentence_is_the_persons_fact(tmp_path: Path) -> None:
    chat = ["Ines called. she's moving to Ghent in May. got a job at Sint-Jan, radiographer", "Great news!"]
    before = [{"type": "relationship", "name": "Ines", "relation": "family", "summary": "User's cousin"}]
    [ines] = [o for o in _extract(tmp_path, chat, before) if o["type"] == "relationship"]
    assert any("Sint-Jan" in fact for fact in ines["facts"])


@pytest.mark.parametrize(
    ("chat", "kept"),
    [(["新工作稳定下来了 想把博客捡起来", "好呀。"], False),
     (["the new job eats all my evenings", "Sounds busy."], False),
     (["新工作在一家券商 做风控", "不错。"], True),
     (["my new job is at Halden Bank, risk analyst", "Congrats!"], True)],
)  # fmt: skip
def test_a_new_job_is_an_occupation_only_when_it_says_what_it_is(
    tmp_path: Path, chat: list[str], kept: bool
) -> None:
    assert bool([o for o in _extract(tmp_path, chat) if o.get("key") == "occupation"]) is kept


# -- a correction goes on in the user's next message ----------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "final", "dropped"),
    [(["from now on give me lists as numbered lists", "Will do.", "hmm actually drop the numbers", "OK.",
       "just plain dashes, one line each", "Got it."], "plain dashes", None),
     (["以后给我命令都用代码块", "好的。", "其实想了下 单行命令 inline 就行了 代码块太占地方", "那多行的呢？", "多行的才用代码块",
       "好的。"], "多行", None),
     (["from now on give me lists as numbered lists", "Will do.", "hmm actually drop the numbers", "Sure.",
       "ok now. the build is failing on arm64", "Let's look."], "drop the numbers", "arm64")],
)  # fmt: skip
def test_the_message_after_a_correction_completes_the_new_rule(
    tmp_path: Path, chat: list[str], final: str, dropped: str | None
) -> None:
    value = _self_summary(_extract(tmp_path, chat), "formatting")
    assert final in value
    assert dropped is None or dropped not in value


# -- a saved note's title names its subject, not its kind ------------------------------------------------


def _title_of(objects: list[dict[str, Any]]) -> str:
    [note] = [o for o in objects if o["type"] == "saved"]
    return str(note["title"])


@pytest.mark.parametrize(
    ("text", "subject"),
    [("记住这个公式：运费 = 重量 × 12 + 8，以后都按这个算", "运费"),
     ("帮我记住这个规则：出差打车单次上限 120，超出自付", "打车"),
     ("remember this formula: shipping = weight x 12 + 8", "shipping"),
     ("对了 仓库那边的水表户号帮我记住 7731 0042 9918", "水表户号")],
)  # fmt: skip
def test_a_notes_title_names_its_subject(tmp_path: Path, text: str, subject: str) -> None:
    assert subject in _title_of(_extract(tmp_path, [text, "OK."]))
