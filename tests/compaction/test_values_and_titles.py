"""Sixth rules pass (issue 15): values the summary missed or cut apart, in English and Chinese.

The chats here are invented for the rule; none comes from an evaluation set.
"""

from __future__ import annotations

from savenow.compaction.chatsignals import sentences
from savenow.compaction.summary import verbatim_ids

from .test_summary_rules import chat, summarize


# ---------------------------------------------------------------- a title's full stop ends no sentence


def test_a_title_full_stop_does_not_split_a_sentence():
    assert sentences("The vet is Dr. Moreau, call him on Monday. Then book it.") == [
        "The vet is Dr. Moreau, call him on Monday.",
        "Then book it.",
    ]
    assert sentences("外婆下周去看 Dr. Lim 复诊，带上化验单") == ["外婆下周去看 Dr. Lim 复诊，带上化验单"]


def test_a_person_with_a_title_keeps_their_number_in_the_summary():
    en = summarize(chat(("user", "the florist changed, contact is Mrs. Varga +36 30 412 7781")))
    assert "Mrs. Varga +36 30 412 7781" in en
    zh = summarize(chat(("user", "场地换了，联系人是 Mr. Tan +65 6344 1029")))
    assert "Mr. Tan +65 6344 1029" in zh


# ---------------------------------------------------------------- a phone number is one value


def test_a_phone_number_in_groups_is_one_value():
    assert verbatim_ids("new number is +65 9871 2204") == ["+65 9871 2204"]
    assert verbatim_ids("call the office on (415) 555-0148") == ["(415) 555-0148"]
    assert verbatim_ids("师傅电话 138 2290 4417，下午到") == ["138 2290 4417"]
    assert verbatim_ids("25 + 6 = 31 元") == ["31 元"]  # a sum is no phone number


def test_a_replaced_phone_number_goes_whole_and_the_new_one_stays_whole():
    en = summarize(
        chat(
            ("user", "Lena's number is +44 7700 900123"),
            ("assistant", "Saved."),
            ("user", "she changed it, the new one is +44 7700 955410, the old +44 7700 900123 no longer works"),
        )
    )
    assert "+44 7700 955410" in en
    assert "900123" not in en
    zh = summarize(
        chat(
            ("user", "物业电话是 139 1766 2084"),
            ("assistant", "记下了。"),
            ("user", "物业换号码了，新的是 139 1766 5530，旧的 139 1766 2084 不用了"),
        )
    )
    assert "139 1766 5530" in zh
    assert "2084" not in zh


# ---------------------------------------------------------------- a version in three parts


def test_a_bare_version_in_three_parts_is_a_value():
    assert verbatim_ids("release 0.9.1 on thursday") == ["0.9.1"]
    assert verbatim_ids("服务器上还是 nginx 1.24.0，先别升级") == ["1.24.0"]
    assert verbatim_ids("ping 10.0.0.12") == ["10.0.0.12"]  # an address stays one value


def test_a_release_plan_with_a_bare_version_is_kept():
    en = summarize(chat(("user", "ship 0.9.1 on thursday, I'll write the notes myself")))
    assert "0.9.1" in en
    zh = summarize(chat(("user", "周四发 2.3.0，发布说明我来写")))
    assert "2.3.0" in zh


# ---------------------------------------------------------------- a date as typed, month in lower case


def test_a_day_first_date_in_lower_case_is_a_value():
    assert verbatim_ids("I'm away from the 23rd dec till 3rd jan") == ["23rd dec", "3rd jan"]
    assert verbatim_ids("店里 20 dec 到 2 jan 不营业") == ["20 dec", "2 jan"]
    assert verbatim_ids("I have 5 marbles and 3 decks") == []  # a count before a word is no date
