"""Round fourteen (issue 15): addresses and phone numbers kept whole, and what is no identifier, in
English and Chinese. The chats here are invented for the rule; none comes from an evaluation set.
"""

from __future__ import annotations

from savenow.compaction.summary import _listable, proper_nouns, verbatim_ids

from .test_summary_rules import chat, summarize

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

    en = summarize(chat(("user", "the new flat is 14 Marsh Lane, keys on Friday")))
    assert "14 Marsh Lane" in en
    zh = summarize(chat(("user", "新家地址是梧桐路 56 号，周五拿钥匙")))
    assert "梧桐路 56 号" in zh


# ---------------------------------------------------------------- values the toolkit's patterns leave out


def test_an_iso_date_is_one_value_but_a_log_timestamp_is_none():
    assert "2027-03-31" in verbatim_ids("the filing is due 2027-03-31, I checked")
    assert "2027-03-31" in verbatim_ids("申报截止 2027-03-31，别忘了")
    assert not any(v.startswith("2026-10-02") for v in verbatim_ids("2026-10-02T08:15:00Z job started"))


def test_a_camel_case_name_of_three_parts_is_one_value():
    assert "errConnRefusedByPeer" in verbatim_ids("the client logs errConnRefusedByPeer on every retry")
    assert "errConnRefusedByPeer" in verbatim_ids("日志里是 errConnRefusedByPeer，重试也一样")
    assert "getToken" not in verbatim_ids("call getToken first")  # two parts: the toolkit's business


def test_a_release_tag_in_capitals_is_one_value():
    assert "BUILD.2026-04-11T09-30-00Z" in verbatim_ids("pin BUILD.2026-04-11T09-30-00Z for now")
    assert "BUILD.2026-04-11T09-30-00Z" in verbatim_ids("先固定 BUILD.2026-04-11T09-30-00Z 这个版本")


# ---------------------------------------------------------------- a table's header and a log's level name nothing


def test_a_tables_header_row_names_nothing():
    df = "Filesystem      Size  Used Avail Use% Mounted on\n/dev/sdb1       1.8T  20G  1.7T   2% /srv"
    assert proper_nouns(df) == []
    ps = "    PID TTY          TIME CMD\n   4411 pts/1    00:00:02 python3"
    assert proper_nouns(ps) == []
    # double spaces in prose are no table
    assert "Nora Quist" in " ".join(proper_nouns("Done.  Ask Nora Quist  tomorrow"))


def test_a_log_level_is_no_part_of_a_name():
    assert proper_nouns("2026-11-30 WARN Delivery failed for Nora Quist") == ["Nora Quist"]
    assert proper_nouns("E ProcessGroupGloo.cpp: 报错 Nora Quist") == ["Nora Quist"]


# ---------------------------------------------------------------- a user's rule with no preference word


def _preferences(summary: str) -> str:
    return summary.split("### Preferences", 1)[1].split("###", 1)[0] if "### Preferences" in summary else ""


def test_a_rule_for_every_one_of_a_kind_is_a_preference():
    zh = summarize(chat(("user", "对了，报表里金额都用两位小数写")))
    assert "两位小数" in _preferences(zh)


def test_a_clause_banning_a_named_thing_is_a_preference():
    en = summarize(chat(("user", "keep the copy plain. no 'synergy', no 'leverage'")))
    assert "synergy" in _preferences(en)
    en = summarize(chat(("user", "fine, no TLS1.0 on the box. I'll update the printer driver later")))
    assert "TLS1.0" in _preferences(en)
    # "no worries" bans nothing
    assert _preferences(summarize(chat(("user", "ok thanks, no worries, talk later")))) == ""
