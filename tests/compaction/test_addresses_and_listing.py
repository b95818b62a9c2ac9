"""Round fourteen (issue 15): addresses and phone numbers kept whole, and what is no identifier, in
English and Chinese. The chats here are invented for the rule; none comes from an evaluation set.
"""

from __future__ import annotations

from savenow.compaction.summary import _listable, proper_nouns, verbatim_ids

# ---------------------------------------------------------------- an address keeps its number


def test_a_house_number_belongs_to_its_street():
    assert "14 Marsh Lane" in proper_nouns("we move into 14 Marsh Lane on Friday")
    assert "3B Orchard Road" in proper_nouns("the office is at 3B Orchard Road now")
    # a number before a name that is no street stays out of it
    assert proper_nouns("we met 12 Hollow Pines people") == ["Hollow Pines"]
    assert "£40 Kings Road" not in " ".join(proper_nouns("paid £40 Kings Road parking"))


def test_a_chinese_street_address_and_building_are_one_value():
    assert "梧桐路 56 号" in verbatim_ids("新家在梧桐路 56 号，下周搬")
    assert "6 号楼" in verbatim_ids("体检在门诊 6 号楼 3 层")
    assert "12栋" in verbatim_ids("快递放到12栋门口")
    assert not any("号楼" in v or "路" in v for v in verbatim_ids("9 号上午到，先去路口等"))


def test_a_landline_with_its_area_code_is_one_value():
    assert "020-83721196" in verbatim_ids("有事打 020-83721196 找前台")
    assert "0161-4960 7723" in verbatim_ids("the office line is 0161-4960 7723")


# ---------------------------------------------------------------- the name before a place's kind


def test_the_tail_of_the_word_before_a_place_is_no_part_of_its_name():
    assert proper_nouns("我先看下仁济医院的须知") == ["仁济医院"]
    assert proper_nouns("可以去同济或者本地医院复查") == ["本地医院"]
    assert proper_nouns("复旦大学附属华山医院") == ["复旦大学", "华山医院"]
    assert "转入医院" not in proper_nouns("转入医院要写全称")


# ---------------------------------------------------------------- a slash between Chinese words is "or"


def test_a_slash_between_chinese_words_is_no_identifier():
    assert not _listable("元/天")
    assert not _listable("降压/降糖药要提前停")
    assert _listable("/opt/app/data")
    assert _listable("PDF/SVG")


def test_the_summary_keeps_an_address_whole_in_either_language():
    from .test_summary_rules import chat, summarize

    en = summarize(chat(("user", "the new flat is 14 Marsh Lane, keys on Friday")))
    assert "14 Marsh Lane" in en
    zh = summarize(chat(("user", "新家地址是梧桐路 56 号，周五拿钥匙")))
    assert "梧桐路 56 号" in zh
