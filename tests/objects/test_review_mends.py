"""Mends from the session-10 review: whole numbers in restatements, the dropped reason in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

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


# -- session 13 review mends -------------------------------------------------------------------


def test_not_the_same_is_no_restatement() -> None:
    from savenow.objects.wording import SAME_AGAIN, SAME_IN_REPLY

    for changed in ("时区不一样，我在伦敦", "我跟你想的不一样，我是做后端的", "commit 格式不一样了"):
        assert not SAME_AGAIN.search(changed), changed
    assert SAME_AGAIN.search("时区一样 方便") and SAME_AGAIN.search("跟我之前一样")
    # "一直是" restates only in the assistant's reply: from the user it is a fact about them
    assert not SAME_AGAIN.search("我一直是夜猫子，最近早睡了")
    assert SAME_IN_REPLY.search("好的老周，一直是这么叫的")


def test_the_users_own_plan_or_question_does_not_go_on_about_someone_else() -> None:
    from savenow.objects.heuristic import _continues_someone_else, _Msg

    msgs = [_Msg(index=0, role="user", text="", at=None)]
    assert not _continues_someone_else(msgs, 0, "她下周生日。", "周末去买蛋糕")
    assert not _continues_someone_else(msgs, 0, "She is coming over Saturday.", "is the cake ready?")
    assert _continues_someone_else(msgs, 0, "她找到新工作了。", "下个月入职")


def test_where_someone_is_from_is_not_where_they_live() -> None:
    from savenow.objects.heuristic import _ASKS_FOR

    assert not _ASKS_FOR["city"].search("你是哪里人？")
    assert _ASKS_FOR["city"].search("你现在住在哪里？")


# -- session 14 review mends (ninth offline objects round) ---------------------------------------------------


def _self_keys_said(tmp_path: Path, chat: list[str]) -> list[str]:
    from .test_offline_rules import _extract, _self_keys

    return _self_keys(_extract(tmp_path, chat))


@pytest.mark.parametrize(
    ("chat", "key"),
    [
        (["No tables please, they look awful on my phone", "OK."], "formatting"),
        (["Keep replies short from now on, they get cut off on my phone", "OK."], "reply_length"),
        (["One of my rules: always reply in English from now on", "OK."], "language_preference"),
        (["以后别用 emoji，他们说看着不专业", "好的。"], "emoji_use"),
        (["以后回复短一点，她帮我看消息，长的她看不懂", "好的。"], "reply_length"),
    ],
)  # fmt: skip
def test_a_pronoun_outside_the_rules_clause_leaves_the_rule_the_users(
    tmp_path: Path, chat: list[str], key: str
) -> None:
    assert key in _self_keys_said(tmp_path, chat)


@pytest.mark.parametrize(
    "chat",
    [
        ["one of the parents always wants a window seat", "Ha."],
        ["Kestrel never eats pork, she keeps halal", "Noted."],
        ["有个同事每次都要靠窗的座位", "理解。"],
        ["Ingrid 不吃海鲜，她过敏", "好的。"],
    ],
)
def test_someone_else_as_the_rules_subject_is_still_theirs(tmp_path: Path, chat: list[str]) -> None:
    assert _self_keys_said(tmp_path, chat) == []


@pytest.mark.parametrize(
    "chat",
    [
        ["I always shoot at ISO 100, from now on assume that", "OK."],
        ["我拍照一直用 ISO160，以后默认按这个来", "好的。"],
    ],
)
def test_a_cameras_iso_is_no_units_rule(tmp_path: Path, chat: list[str]) -> None:
    assert "units" not in _self_keys_said(tmp_path, chat)


@pytest.mark.parametrize(
    "chat",
    [
        ["from now on use ISO for everything", "OK."],
        ["以后日期一律用 ISO 8601 格式", "好的。"],
    ],
)
def test_iso_for_dates_is_still_a_units_rule(tmp_path: Path, chat: list[str]) -> None:
    from savenow.objects.heuristic import SELF_RULES

    units = SELF_RULES["units"][0]
    assert all(units.search(said) for said in ("ISO 8601 dates", "ISO dates", "ISO8601 format"))
    assert not units.search("ISO 100") and not units.search("ISO160")
    assert "units" in _self_keys_said(tmp_path, chat)


def _people(tmp_path: Path, chat: list[str]) -> list[str]:
    from .test_offline_rules import _extract

    return [
        str(o.get("name"))
        for o in _extract(tmp_path, chat)
        if o["type"] == "relationship" and o["op"] != "skip"
    ]


@pytest.mark.parametrize(
    "chat",
    [
        ["my colleague Lena is allergic to latex, even one-time gloves", "Noted."],
        ["我同事 Lena 对乳胶过敏，一次性手套也不行", "好的。"],
        ["my colleague Lena runs our payroll. Never again am I doing it by hand", "Noted."],
        ["我同事 Lena 管我们的报销。就这一次我自己填了表", "好的。"],
    ],
)
def test_a_one_time_word_that_is_not_about_the_person_keeps_them(tmp_path: Path, chat: list[str]) -> None:
    assert _people(tmp_path, chat) == ["Lena"]


@pytest.mark.parametrize(
    "chat",
    [
        ["the buyer is a guy called Tavish from Perth, a one-off client", "Want a quote template?"],
        ["这个客户叫 Tavish，澳洲的，一次性的订单", "好的，需要报价单吗？"],
    ],
)
def test_a_person_introduced_as_a_one_off_is_not_kept(tmp_path: Path, chat: list[str]) -> None:
    assert _people(tmp_path, chat) == []


@pytest.mark.parametrize(
    ("said", "formula"),
    [
        ("总价 = 字数 / 1000 × 千字单价", True),
        ("报价 = 工时*时薪+材料费", True),
        ("分给我的 = 利润的 3/4 左右", True),
        ("price = cost x 2.5 + shipping", True),
        ("fee = hours / 8 days", True),
        ("资料链接 = https://example.com/docs/units", False),
        ("the units wiki = https://wiki.example.org/x/metric", False),
        ("负责人 = Max", False),
        ("owner = Alex from ops", False),
    ],
)
def test_a_link_or_a_word_with_x_is_no_formula(said: str, formula: bool) -> None:
    from savenow.objects.heuristic import _FORMULA

    assert bool(_FORMULA.search(said)) is formula
