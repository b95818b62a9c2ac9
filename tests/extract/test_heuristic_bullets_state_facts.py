"""Bullets that state a fact on their own and titles that name something (issue 12, session 13):
one test per failure kind read on the untuned sets, in both languages."""

from __future__ import annotations

import pytest

from savenow.extract.heuristic.clauses import clean_zh_statement
from savenow.extract.heuristic.form import once_each, tidy_bullet
from savenow.extract.heuristic.titles import title_faults
from savenow.vocabulary import NoteKind

FACT = frozenset({NoteKind.NOTE})
RULE = frozenset({NoteKind.FUTURE})


# ----------------------------------------------------------------------------- a cut sentence


def test_a_sentence_cut_after_a_title_abbreviation_is_one_bullet_again() -> None:
    bullets = ["Draft to Prof.", "Okafor by 15 January.", "Use the uni template."]
    assert once_each(bullets, [FACT] * 3) == ["Draft to Prof. Okafor by 15 January.", "Use the uni template."]


def test_a_lone_abbreviation_is_no_bullet() -> None:
    assert once_each(["Okafor, Riverside Animal Clinic, 503-555-0148.", "Dr."], [FACT] * 2) == [
        "Okafor, Riverside Animal Clinic, 503-555-0148."
    ]


def test_an_abbreviation_in_the_middle_of_a_list_is_not_joined_to_a_lowercase_line() -> None:
    bullets = ["Ask Dr.", "then call the pharmacy"]
    assert once_each(bullets, [FACT] * 2) == bullets


# ----------------------------------------------------------------------------- remarks


@pytest.mark.parametrize("remark", ["My bad", "Reading it again", "Sounds good."])
def test_a_short_remark_with_no_value_goes_while_a_fact_stays(remark: str) -> None:
    assert once_each(["Target length 88,000 words.", remark], [FACT] * 2) == ["Target length 88,000 words."]


@pytest.mark.parametrize(
    "short",
    ["Use tabs", "Closed on Sundays", "Daily: every other day", "Ice 15 min", "Runs `make all`", "要带泳镜"],
)
def test_short_facts_are_no_remarks(short: str) -> None:
    kinds = [RULE if short == "Use tabs" else FACT] * 2
    assert once_each(["Swim class Saturday 10:00 at the YMCA.", short], kinds) == [
        "Swim class Saturday 10:00 at the YMCA.",
        short,
    ]


@pytest.mark.parametrize(
    "short",
    ["Allergic to penicillin.", "Lactose intolerant.", "Vegetarian.", "Works nights.", "Passport renewed."],
)
def test_a_short_fact_of_content_words_is_no_remark(short: str) -> None:
    # (review, session 13: "three words, no value" also describes facts)
    assert once_each(["Mum's GP is Dr. Patel at Elm Surgery.", short], [FACT] * 2) == [
        "Mum's GP is Dr. Patel at Elm Surgery.",
        short,
    ]


def test_a_street_abbreviation_ends_its_sentence() -> None:
    bullets = ["The new office is at 40 Baker St.", "Parking is in basement level B2."]
    assert once_each(bullets, [FACT] * 2) == bullets


def test_a_restatement_with_the_same_values_goes_whatever_punctuation_follows_them() -> None:
    said = once_each(
        ["From now on keep 7 backups, run at 03:00.", "Keep 7 backups, run at 03:00 daily"], [RULE] * 2
    )
    assert len(said) == 1


def test_a_remark_alone_stays_rather_than_an_empty_note() -> None:
    assert once_each(["My bad"], [FACT]) == ["My bad"]


# ----------------------------------------------------------------------------- lead-ins


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("决定了：ledger-bot 用 postgres 16。", "ledger-bot 用 postgres 16。"),
        ("三条：体温 37.3℃ 以上不入园；禁止带零食。", "体温 37.3℃ 以上不入园；禁止带零食。"),
        ("Thinking about it, the whaler chapter stays.", "The whaler chapter stays."),
        ("On reflection, 88,000 words is the target.", "88,000 words is the target."),
    ],
)
def test_a_decision_or_count_lead_in_leaves_the_fact(said: str, kept: str) -> None:
    assert tidy_bullet(said) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "要 电信宽带账号 028-66103321 迁移要提前 3 个工作日预约",
            "电信宽带账号 028-66103321 迁移要提前 3 个工作日预约。",
        ),
        ("要 华西 app 上提前 7 天放号 早上 8 点", "华西 app 上提前 7 天放号，早上 8 点。"),
        ("没错 端口是 6432", "端口是 6432"),
    ],
)
def test_the_answer_to_the_assistants_question_is_no_part_of_the_fact(said: str, kept: str) -> None:
    assert clean_zh_statement(said) == kept


def test_a_verb_that_opens_with_yao_stays() -> None:
    assert clean_zh_statement("要带泳镜和泳帽") == "要带泳镜和泳帽"
    assert clean_zh_statement("只要 3 个") == "只要 3 个"


# ----------------------------------------------------------------------------- titles


@pytest.mark.parametrize("heading", ["其余", "大约", "剩下"])
def test_the_rest_or_roughly_names_nothing(heading: str) -> None:
    assert "empty" in title_faults(heading, ["周三 14:30，其余 15:45。"], "zh")


@pytest.mark.parametrize(
    ("heading", "bullet"), [("付了", "付了 200，尾款 680 现场付。"), ("一节", "一节 260 元。")]
)
def test_a_done_verb_or_a_count_is_no_title(heading: str, bullet: str) -> None:
    assert "clause" in title_faults(heading, [bullet], "zh")


@pytest.mark.parametrize("heading", ["一号楼", "游泳课", "了解渠道"])
def test_names_with_numerals_or_le_inside_have_no_fault(heading: str) -> None:
    assert "clause" not in title_faults(heading, [f"{heading} 在东门。"], "zh")


# ----------------------------------------------------------------------------- asides


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("爸爸的化验结果总结都用中文写，方便我转给妈妈。", "爸爸的化验结果总结都用中文写。"),
        (
            "server 2 用 9101，ipmi_exporter 留在 9100，懒得动了。",
            "server 2 用 9101，ipmi_exporter 留在 9100。",
        ),
        ("以后爸爸的化验结果总结都用中文写，方便你转给妈妈。", "爸爸的化验结果总结都用中文写。"),
    ],
)
def test_the_speakers_reason_or_occasion_goes_when_the_fact_stands(said: str, kept: str) -> None:
    assert clean_zh_statement(said) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("海鲜别点，不然我会过敏", "不然"),  # a consequence
        ("别放香菜，免得我又吐", "免得"),
        ("最近经常失眠，医生开了褪黑素", "失眠"),  # a symptom
        ("药放在冰箱门上，到时候你提醒我吃", "提醒"),  # a request
    ],
)
def test_a_consequence_a_symptom_or_a_request_is_no_mere_reason_zh(said: str, kept: str) -> None:
    assert kept in clean_zh_statement(said)


def test_a_consequence_stays_in_the_saved_note_zh() -> None:
    from tests.extract.support import chat, extract, saved, text_of

    notes = [text_of(e) for e in saved(extract(chat("u: 记一下：海鲜别点，不然我会过敏", "a: 记下了。")))]
    assert any("过敏" in t for t in notes)


def test_a_consequence_stays_in_the_saved_note_en() -> None:
    # the aside rule reads Chinese clauses only; this guards the English side of the same fact
    from tests.extract.support import chat, extract, saved, text_of

    said = "u: Please remember: no seafood for me, otherwise I break out in hives."
    notes = [text_of(e) for e in saved(extract(chat(said, "a: Noted.")))]
    assert any("hives" in t for t in notes)


@pytest.mark.parametrize("said", ["方便我 8 点前到", "最近早上血压老是 150 上下", "别到时候再改"])
def test_a_reason_with_a_value_or_without_the_speaker_stays(said: str) -> None:
    assert clean_zh_statement(said) == said


# ----------------------------------------------------------------------------- one wording once


def test_two_wordings_with_the_same_values_are_one_fact_at_four_shared_terms() -> None:
    bullets = ["美团外卖谈下来抽成 18%，2027-03-16 再谈。", "美团抽成目前 18%，2027-03-16 重新谈。"]
    assert len(once_each(bullets, [FACT] * 2)) == 1


def test_a_value_written_otherwise_is_not_dropped_as_a_restatement() -> None:
    bullets = ["她们付款是月结，每月25号统一打款。", "蓝鲸法务月结，每月 25 号统一付款。"]
    assert once_each(bullets, [FACT] * 2) == bullets
    english = ["Wall sits 3x30s, then step-downs.", "Wall sits 3 x 30s, then step-downs."]
    assert once_each(english, [FACT] * 2) == english


# ----------------------------------------------------------------------------- units are no subject


def test_a_unit_written_after_a_number_is_no_title_term() -> None:
    from savenow.extract.heuristic.titles import TitleContext, note_title

    bullets = ["Levothyroxine 88 mcg from 2026-12-21."]
    chat = [
        "Levothyroxine is now 88 mcg, not 100 mcg.",
        "So 88 mcg of Levothyroxine from the 21st, 88 mcg daily.",
    ]
    heading = note_title(bullets, {NoteKind.CHANGE}, (), "en", TitleContext(chat, chat))
    assert "mcg" not in heading.casefold()


def test_a_decimal_count_before_a_chinese_unit_is_a_count() -> None:
    from savenow.extract.heuristic.titles import _after_number

    assert _after_number("微克", "每天 62.5 微克。")
    assert not _after_number("微克", "微克单位换算。")


def test_a_name_that_opens_on_a_numeral_is_no_count() -> None:
    from savenow.extract.heuristic.titles import _ZH_CLAUSE

    assert all(not _ZH_CLAUSE.search(name) for name in ("三星", "三亚", "一加", "九阳"))
    assert all(_ZH_CLAUSE.search(count) for count in ("两次", "一节", "每周"))
