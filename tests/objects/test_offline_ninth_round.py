"""Ninth-round rules of the offline extractor (found by reading the untuned sets' failures by category: a
superseded or withdrawn value kept in a self object), each in Chinese and in English with made-up phrasings
(people, places and values of no evaluation case)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_offline_rules import _extract, _self_keys, _self_summary

# -- the assistant's acknowledgement names the rule a keyless message changes or goes on with ----------------


@pytest.mark.parametrize(
    ("chat", "kept", "gone"),
    [
        # a change of mind replaces the rule
        (["以后别用 emoji 了", "好的，不用 emoji。", "嗯…其实偶尔一个也行 只放在最后", "明白：只在最后偶尔放一个 emoji。"],
         "只放在最后", "别用"),
        (["no emoji at all please", "OK, no emoji.", "actually one at the very end is fine", "Got it: one emoji at the end at most."],
         "very end", "at all"),
    ],
)  # fmt: skip
def test_a_change_of_mind_the_reply_names_replaces_the_rule(
    tmp_path: Path, chat: list[str], kept: str, gone: str
) -> None:
    summary = _self_summary(_extract(tmp_path, chat), "emoji_use")
    assert kept in summary and gone not in summary


@pytest.mark.parametrize(
    ("chat", "words"),
    [
        (["以后别给我表格了", "好，那改用列表？", "列表可以 但每条一行", "好的：不用表格，用列表，每条一行。"],
         ("表格", "每条一行")),
        (["from now on no tables please", "Sure, bullets instead?", "bullets are fine but one line each",
          "Got it: no tables, bullets, one line each."], ("tables", "one line each")),
    ],
)  # fmt: skip
def test_a_keyless_addition_the_reply_names_goes_on_with_the_rule(
    tmp_path: Path, chat: list[str], words: tuple[str, ...]
) -> None:
    summary = _self_summary(_extract(tmp_path, chat), "formatting")
    assert all(word in summary for word in words)


@pytest.mark.parametrize(
    "chat",
    [
        ["以后别用 emoji 了", "好的，不用 emoji。", "帮我算下 18 乘 7", "好的：126。"],
        ["no emoji please, ever", "OK, no emoji.", "what's 18 times 7", "Sure: 126."],
    ],
)
def test_a_reply_that_names_no_rule_adds_nothing(tmp_path: Path, chat: list[str]) -> None:
    assert "18" not in _self_summary(_extract(tmp_path, chat), "emoji_use")


# -- the value left behind, and the complaint before the rule, are no part of it ---------------------------


@pytest.mark.parametrize(
    ("chat", "kept", "gone"),
    [
        (["我换编辑器了 从 Sublime 换到 Kakoune", "好的。"], "Kakoune", "Sublime"),
        (["I switched from Sublime to Kakoune for everything", "Nice."], "Kakoune", "Sublime"),
    ],
)
def test_the_value_switched_from_is_dropped(tmp_path: Path, chat: list[str], kept: str, gone: str) -> None:
    summary = _self_summary(_extract(tmp_path, chat), "tools")
    assert kept in summary and gone not in summary


@pytest.mark.parametrize(
    ("chat", "kept", "gone"),
    [
        (["唉 回复太长了看着累 以后回复两句话就够", "好的。"], "两句话", "看着累"),
        (["ugh, walls of text, from now on keep replies to two sentences", "OK."], "two sentences", "walls"),
    ],
)
def test_the_complaint_before_a_rule_is_dropped(
    tmp_path: Path, chat: list[str], kept: str, gone: str
) -> None:
    summary = _self_summary(_extract(tmp_path, chat), "reply_length")
    assert kept in summary and gone not in summary


@pytest.mark.parametrize(
    ("chat", "key", "words"),
    [
        # a rule before the standing word stays ("我要过道", "commit messages: …"); so does a time ("22:30 以后")
        (["我要靠窗 以后订票都选靠窗", "好的。"], "travel", ("我要靠窗",)),
        (["commit messages: imperative mood, from now on always with the ticket id", "OK."], "code_style",
         ("imperative", "ticket")),
        (["晚上 22:30 以后别给我发消息", "好的。"], "quiet_hours", ("22:30",)),
    ],
)  # fmt: skip
def test_a_rule_before_the_standing_word_is_kept(
    tmp_path: Path, chat: list[str], key: str, words: tuple[str, ...]
) -> None:
    summary = _self_summary(_extract(tmp_path, chat), key)
    assert all(word in summary for word in words)


@pytest.mark.parametrize(
    "chat",
    [
        ["以后日期都用 ISO 格式写", "好的，比如 2027-03-04。"],
        ["from now on write dates as ISO, please", "Sure: 2027-03-04."],
    ],
)
def test_iso_dates_are_a_units_rule(tmp_path: Path, chat: list[str]) -> None:
    assert "ISO" in _self_summary(_extract(tmp_path, chat), "units")


# -- what a "remember" note is made of ---------------------------------------------------------------------


def _note(objects: list[dict[str, Any]]) -> dict[str, Any]:
    [note] = [o for o in objects if o["type"] == "saved" and o["op"] == "create"]
    return note


@pytest.mark.parametrize(
    ("chat", "words"),
    [
        (["帮我记住这个规则：二线城市餐补 80 一天；发票抬头写「云栖木作有限公司」", "记住了。"], ("80", "云栖木作有限公司")),
        (["remember this rule: meals up to 45 a day; invoices to Fernhill Works Ltd", "Noted."],
         ("45", "Fernhill Works Ltd")),
    ],
)  # fmt: skip
def test_a_labelled_note_runs_to_the_message_end(
    tmp_path: Path, chat: list[str], words: tuple[str, ...]
) -> None:
    summary = _note(_extract(tmp_path, chat))["summary"]
    assert all(word in summary for word in words)


@pytest.mark.parametrize(
    ("chat", "kept", "gone"),
    [
        (["I take the bins out on mondays, Ola does fridays. remember that, I never get it right", "Saved."],
         "fridays", "never get"),
        (["bins go out mondays and the recycling on fridays. note that down, it keeps slipping my mind", "OK."],
         "recycling", "slipping"),
    ],
)  # fmt: skip
def test_remember_that_keeps_what_was_said_before_it(
    tmp_path: Path, chat: list[str], kept: str, gone: str
) -> None:
    summary = _note(_extract(tmp_path, chat))["summary"]
    assert kept in summary and gone not in summary


@pytest.mark.parametrize(
    "chat",
    [
        ["帮我记住报价公式：总价 = 字数 / 500 × 单价 + 20", "记住了。"],
        ["remember this formula: fee = words / 500 x rate + 20, the words count is the client's", "Noted."],
    ],
)
def test_a_formula_to_remember_stays_a_note(tmp_path: Path, chat: list[str]) -> None:
    objects = _extract(tmp_path, chat)
    assert "500" in _note(objects)["summary"]
    assert not [o for o in objects if o["type"] == "self"]


# -- someone else's habit, and a person met once, are not kept ---------------------------------------------


@pytest.mark.parametrize(
    "chat",
    [
        ["有个家长每次都要靠窗的座位 烦", "理解。"],
        ["someone on the team always wants a window seat, annoying", "Ha."],
        ["Rosalind 不吃牛肉，她家信印度教", "好的。"],
        ["Bartek hates early calls, never book him before 10", "Noted."],
        ["我自己到时候不吃 在旁边看着就行", "好的。"],
    ],
)
def test_another_persons_habit_or_a_one_occasion_plan_is_no_self_object(
    tmp_path: Path, chat: list[str]
) -> None:
    assert _self_keys(_extract(tmp_path, chat)) == []


@pytest.mark.parametrize(
    "chat",
    [
        ["以后技术问题用英文回答，其他的照旧中文", "好的。"],  # 其他 is "other", no one's pronoun
        ["I don't eat pork, never have, unlike him", "Noted."],  # the user opens it
    ],
)
def test_the_users_own_rule_beside_a_pronoun_is_kept(tmp_path: Path, chat: list[str]) -> None:
    assert _self_keys(_extract(tmp_path, chat))


@pytest.mark.parametrize(
    "chat",
    [
        ["这个客户叫 Orlando，秘鲁的，估计就这一次", "好的，需要报价单吗？"],
        ["the buyer is a guy called Orlando from Lima, a one-off order", "Want a quote template?"],
    ],
)
def test_a_person_the_user_deals_with_once_is_not_kept(tmp_path: Path, chat: list[str]) -> None:
    assert not [o for o in _extract(tmp_path, chat) if o["type"] == "relationship"]


# -- a person's fact said beside a question, or as what they need ------------------------------------------


def _facts(objects: list[dict[str, Any]], name: str) -> str:
    [person] = [o for o in objects if o["type"] == "relationship" and o.get("name") == name]
    return " ".join(person.get("facts") or [])


_ODA = {"type": "relationship", "name": "Oda", "relation": "friend", "summary": "Friend from the choir"}
_LAN = {"type": "relationship", "name": "阿澜", "relation": "friend", "summary": "用户的大学同学"}


@pytest.mark.parametrize(
    ("chat", "before", "word"),
    [
        (["Oda is vegan now, is the bistro on Quay Street any good for her?", "They have two vegan mains."], _ODA,
         "vegan"),
        (["阿澜现在不吃海鲜了，那家店有别的菜吗？", "有几道素菜。"], _LAN, "海鲜"),
    ],
)  # fmt: skip
def test_the_fact_before_a_question_is_kept(
    tmp_path: Path, chat: list[str], before: dict[str, Any], word: str
) -> None:
    facts = _facts(_extract(tmp_path, chat, [before]), before["name"])
    assert word in facts and "?" not in facts and "？" not in facts


@pytest.mark.parametrize(
    ("chat", "before", "word"),
    [
        (["Oda wants to sit near the door at concerts, always", "Noted."], _ODA, "door"),
        (["阿澜一定要坐靠门的位置，她怕闷", "好的。"], _LAN, "靠门"),
        (["阿澜拿到了一家设计院的 offer", "恭喜她！"], _LAN, "offer"),
    ],
)  # fmt: skip
def test_what_a_person_needs_is_their_fact(
    tmp_path: Path, chat: list[str], before: dict[str, Any], word: str
) -> None:
    assert word in _facts(_extract(tmp_path, chat, [before]), before["name"])


@pytest.mark.parametrize(
    ("chat", "kept", "gone"),
    [
        (["以后比较的时候用表格", "好的。", "算了 还是别用表格了，用编号列表，每条一行", "明白。"], "编号列表", "用表格"),
        (["use tables for comparisons", "OK.", "actually no more tables, numbered lists with one line each", "OK."],
         "numbered lists", "tables"),
    ],
)  # fmt: skip
def test_a_correction_keeps_the_new_value_not_the_withdrawn_one(
    tmp_path: Path, chat: list[str], kept: str, gone: str
) -> None:
    summary = _self_summary(_extract(tmp_path, chat), "formatting")
    assert kept in summary and gone not in summary
