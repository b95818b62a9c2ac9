"""Fourth-round rules of the offline extractor, each in Chinese and in English: self keys from more
general language, a person's lasting preference beside a day or clock, names a stored summary says a
person goes by, topic threads that end or move with the assistant's question, restated values, saved
notes after a colon, and the cap of five keeping the most durable. The phrasings are made up for the
rule (people, projects and numbers of no evaluation case)."""

from __future__ import annotations

from pathlib import Path

import pytest

from savenow.objects.heuristic import PERSON_LASTING, _called_names, _pet_form

from .test_offline_rules import _extract, _person, _text, _topic, _writes


def _self(objects: list[dict[str, object]], key: str) -> dict[str, object]:
    [obj] = [o for o in objects if o["type"] == "self" and o.get("key") == key and o["op"] != "skip"]
    return obj


# -- self keys from general language -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "key", "word"),
    [(["I'm retired now, I was a bus driver for twenty years", "Nice!"], "occupation", "bus driver"),
     (["我前年从区医院退休了，干了二十多年护士", "辛苦了"], "occupation", "护士"),
     (["我在 TU Delft 读 Architecture 的 bachelor", "酷"], "occupation", "TU Delft"),
     (["我住杭州西湖区，离公司不远", "好"], "city", "西湖区"),
     (["I'm in Lisbon, so WET isn't it, I'm on CET actually", "OK."], "timezone", "CET"),
     (["when you explain things to me, show me an example photo first, then the settings", "Sure."],
      "study_method", "example"),
     (["你教我东西的时候，先给我看个示例，再讲原理", "好的"], "study_method", "示例"),
     (["每次最多两三句话就好，我看不了长的", "好的"], "reply_length", "两三句话"),
     (["two sentences max please, always", "OK."], "reply_length", "two sentences"),
     (["剪视频我用的是电脑上的 DaVinci Resolve", "好"], "tools", "DaVinci"),
     (["always window for me on trains, I like to look out", "Noted."], "travel", "window"),
     (["回复可以中英混着来，专业名词别翻译", "好"], "language_preference", "中英"),
     (["commits: imperative mood, always reference the ticket", "OK."], "code_style", "imperative")],
)  # fmt: skip
def test_general_language_names_a_self_key(tmp_path: Path, chat: list[str], key: str, word: str) -> None:
    assert word in str(_self(_extract(tmp_path, chat), key)["summary"])


@pytest.mark.parametrize(
    "chat",
    [["Shader error in 'Render/Glow': undeclared identifier at line 40", "Add the variable."],
     ["what time is 09:00 UTC in Denver", "02:00 MDT."],
     ["the report is cut by CET days, the raw table is UTC", "OK."]],
)  # fmt: skip
def test_a_path_a_clock_question_or_a_reports_zone_is_no_timezone(tmp_path: Path, chat: list[str]) -> None:
    assert [w for w in _writes(_extract(tmp_path, chat)) if w[2] == "timezone"] == []


@pytest.mark.parametrize(
    "chat",
    [["save this link for me: https://example.org/d/4kg-Zq9plan", "Saved."],
     ["记住这个链接：https://example.org/d/12km-route", "好"]],
)  # fmt: skip
def test_a_link_is_never_a_unit_preference(tmp_path: Path, chat: list[str]) -> None:
    assert [w for w in _writes(_extract(tmp_path, chat)) if w[0] == "self"] == []


@pytest.mark.parametrize(
    ("chat", "time"),
    [(["I start early shifts from the 3rd, so nothing after 9pm from then on", "OK."], "9pm"),
     (["从 5 号开始我上夜班，下午 2 点前别给我发消息", "好"], "2 点")],
)  # fmt: skip
def test_a_rule_from_a_date_on_is_a_standing_rule(tmp_path: Path, chat: list[str], time: str) -> None:
    assert time in str(_self(_extract(tmp_path, chat), "quiet_hours")["summary"])


# -- people -------------------------------------------------------------------------------------------


def test_a_lasting_preference_or_condition_is_a_fact_even_beside_a_day_or_clock() -> None:
    assert PERSON_LASTING.search("she hates calls after 7pm")
    assert PERSON_LASTING.search("上周确诊他是花粉过敏")


@pytest.mark.parametrize(
    ("chat", "name", "word"),
    [(["my editor Tobias only answers on Signal, don't bother with email for him", "OK."], "Tobias", "Signal"),
     (["Tobias hates calls after 7pm, text him instead", "OK."], "Tobias", "text him"),
     (["宝宝刚睡", "小宇今天还好吗？", "还行，就是医生上周确诊他是花粉过敏", "要注意"], "小宇", "花粉过敏")],
)  # fmt: skip
def test_a_stored_persons_lasting_preference_is_theirs(
    tmp_path: Path, chat: list[str], name: str, word: str
) -> None:
    before = [_person("Tobias", "work"), _person("小宇", "family", "用户的儿子")]
    objects = _extract(tmp_path, chat, before)
    [obj] = [o for o in objects if o["type"] == "relationship" and o["op"] == "update"]
    assert obj["name"] == name and word in _text(obj)
    assert [w for w in _writes(objects) if w[0] == "self"] == []


@pytest.mark.parametrize(
    "chat",
    [["Dora can't have sugar for a while, just for now", "OK."], ["朵拉这段时间不能吃糖", "好"]],
)  # fmt: skip
def test_a_for_a_while_clause_is_no_fact_about_a_person(tmp_path: Path, chat: list[str]) -> None:
    before = [_person("Dora", "family"), _person("朵拉", "family")]
    assert [w for w in _writes(_extract(tmp_path, chat, before)) if w[0] == "relationship"] == []


def test_a_name_the_stored_summary_says_a_person_goes_by() -> None:
    assert _called_names("用户的丈夫，大家叫他阿斌") == ["阿斌"]
    assert _called_names("The user's aunt, goes by Bea") == ["Bea"]


@pytest.mark.parametrize(
    ("stored", "summary", "chat", "word"),
    [("刘晓斌", "用户的丈夫，大家叫他阿斌", ["阿斌说他以后不喝咖啡了", "好"], "咖啡"),
     ("Beatrice", "The user's aunt, goes by Bea", ["Bea moved to Porto last month", "Nice."], "Porto")],
)  # fmt: skip
def test_a_person_called_as_the_summary_says_is_an_update_under_the_stored_name(
    tmp_path: Path, stored: str, summary: str, chat: list[str], word: str
) -> None:
    objects = _extract(tmp_path, chat, [_person(stored, "family", summary)])
    [obj] = [o for o in objects if o["type"] == "relationship"]
    assert obj["op"] == "update" and obj["name"] == stored and word in _text(obj)


def test_a_pet_form_through_a_known_short_form() -> None:
    assert _pet_form("lizzie", "elizabeth") and _pet_form("billy", "william")
    assert not _pet_form("lizzie", "margaret")


@pytest.mark.parametrize(
    ("chat", "name", "word"),
    [(["房东叫 Herr Becker，他要求每月 3 号前交房租", "好"], "Herr Becker", "3 号"),
     (["我的客户叫 Anouk，她只用 WhatsApp 联系", "好"], "Anouk", "WhatsApp")],
)  # fmt: skip
def test_a_role_word_naming_someone_starts_a_new_person(
    tmp_path: Path, chat: list[str], name: str, word: str
) -> None:
    objects = _extract(tmp_path, chat)
    [obj] = [o for o in objects if o["type"] == "relationship"]
    assert obj["op"] == "create" and obj["name"] == name and word in _text(obj)


# -- topics -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "topic", "person", "word"),
    [(["the Harbor app launch is back on, resuming next sprint", "Great.",
       "anyway, Marta said her rate went up to 60 an hour from now on", "OK."], "Harbor app", "Marta", "60"),
     (["之前停掉的播客我想重新搞起来", "好主意", "先说别的，阿芳那边说以后要月结", "好"], "播客", "阿芳", "月结")],
)  # fmt: skip
def test_a_message_naming_a_stored_person_ends_the_topic_thread(
    tmp_path: Path, chat: list[str], topic: str, person: str, word: str
) -> None:
    objects = _extract(tmp_path, chat, [_topic(topic, "paused"), _person(person, "work")])
    [thread] = [o for o in objects if o["type"] == "topic"]
    assert word not in _text(thread)
    [who] = [o for o in objects if o["type"] == "relationship"]
    assert word in _text(who)


@pytest.mark.parametrize(
    ("chat", "other", "value"),
    [(["the Beta signup form is closed for good, archive it", "Done. And the Atlas release date?",
       "still March 2027, unchanged", "OK."], "Atlas release", "March 2027"),
     (["报名表这块到此为止，归档吧", "好。官网改版现在定在什么时候？", "还是 2027 年 3 月，没变", "好"],
      "官网改版", "2027 年 3 月")],
)  # fmt: skip
def test_an_answer_about_another_topic_goes_there_and_a_restated_value_is_a_skip(
    tmp_path: Path, chat: list[str], other: str, value: str
) -> None:
    first = "Beta signup form" if other == "Atlas release" else "报名表"
    before = [_topic(first), _topic(other, summary=f"target {value}")]
    objects = _extract(tmp_path, chat, before)
    [closed] = [o for o in objects if o["type"] == "topic" and o["name"] == first]
    assert closed["op"] == "update" and closed["status"] == "archived" and value not in _text(closed)
    assert [o["op"] for o in objects if o["type"] == "topic" and o["name"] == other] in ([], ["skip"])


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["the thesis deadline is June 10", "How many chapters are left?", "3 chapters, the methods one first", "OK."],
      "3 chapters"),
     (["毕业论文 6 月 10 号前交", "还差几章？", "还差 3 章，方法那章先写", "好"], "3 章")],
)  # fmt: skip
def test_a_quantity_answering_the_assistant_is_a_topic_value(
    tmp_path: Path, chat: list[str], word: str
) -> None:
    name = "thesis" if "thesis" in chat[0] else "毕业论文"
    objects = _extract(tmp_path, chat, [_topic(name, summary="chapters: intro, methods, results")])
    [obj] = [o for o in objects if o["type"] == "topic"]
    assert obj["op"] == "update" and word in _text(obj)


@pytest.mark.parametrize(
    ("chat", "stored"),
    [(["the Orchard site redesign: homepage copy is final", "Great.", "I'm still on Figma for all of it", "OK."],
      "Uses Figma for design"),
     (["官网改版的首页文案定了", "好", "我还是在市一中教物理哈", "好的"], "用户在市一中教物理")],
)  # fmt: skip
def test_a_restated_self_fact_is_no_topic_conclusion(tmp_path: Path, chat: list[str], stored: str) -> None:
    name = "Orchard site redesign" if "Orchard" in chat[0] else "官网改版"
    key = "tools" if "Figma" in stored else "occupation"
    category = "working_style" if key == "tools" else "identity"
    before = [_topic(name), {"type": "self", "category": category, "key": key, "summary": stored}]
    [obj] = [o for o in _extract(tmp_path, chat, before) if o["type"] == "topic"]
    assert "Figma" not in _text(obj) and "市一中" not in _text(obj)


# -- saved --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "words"),
    [(["remember: the router is a Fritzbox 7590. reset = hold the button 10 sec, then wait for green", "Got it."],
      ["7590", "10 sec"]),
     (["记住：热水器是 A.O.史密斯。复位 = 按住复位键 5 秒，再等绿灯", "好"], ["史密斯", "5 秒"])],
)  # fmt: skip
def test_remember_with_a_colon_keeps_the_whole_message(
    tmp_path: Path, chat: list[str], words: list[str]
) -> None:
    [obj] = [o for o in _extract(tmp_path, chat) if o["type"] == "saved"]
    assert all(w in _text(obj) for w in words)


def test_a_short_subject_clause_leads_the_saved_title(tmp_path: Path) -> None:
    chat = ["and remember the new gardener, Tomas, comes every second Monday, £30 per visit, cash", "Noted."]
    [obj] = [o for o in _extract(tmp_path, chat) if o["type"] == "saved"]
    assert "gardener" in str(obj["title"])


# -- the cap of five ----------------------------------------------------------------------------------


def test_under_the_cap_laid_down_rules_and_working_contacts_outlast_a_passing_mention(tmp_path: Path) -> None:
    chat = [
        "I run Fernhill Ceramics, a pottery studio", "Lovely.",
        "always quote prices in EUR with VAT included", "OK.",
        "never message me before 10am, I fire the kiln at night", "OK.",
        "my glaze comes from Ines at Kilnworks, she only answers email", "Noted.",
        "the big project right now is the Autumn Market stall, 40 mugs to make", "Nice.",
        "my cousin Remy came by, he loves the blue ones", "Ha.",
    ]  # fmt: skip
    writes = _writes(_extract(tmp_path, chat))
    assert len(writes) == 5
    assert ("relationship", "create", "Remy") not in writes
    assert {"units", "quiet_hours", "Ines"} <= {w[2] for w in writes}


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["the Ledger sync rewrite: we decided on a queue", "Which one?", "I'm using Redis for it now, decided", "OK."],
      "Redis"),
     (["账本同步重写定了用队列", "用哪个？", "我改用 Redis 了，定了", "好"], "Redis")],
)  # fmt: skip
def test_a_tool_chosen_for_a_project_stays_with_the_topic(tmp_path: Path, chat: list[str], word: str) -> None:
    name = "Ledger sync rewrite" if "Ledger" in chat[0] else "账本同步重写"
    [obj] = [o for o in _extract(tmp_path, chat, [_topic(name)]) if o["type"] == "topic"]
    assert word in _text(obj)


@pytest.mark.parametrize(
    "chat",
    [["我的退休金这个月到账了", "好的"], ["我住了三天酒店，挺累", "辛苦"], ["我住的酒店在外滩附近", "不错"], ["我讲课的时候嗓子疼", "多喝水"],
     ["I pushed 3 commits to the branch", "Nice."]],
)  # fmt: skip
def test_near_misses_of_the_new_self_cues_are_no_self_fact(tmp_path: Path, chat: list[str]) -> None:
    assert [w for w in _writes(_extract(tmp_path, chat)) if w[0] == "self"] == []


@pytest.mark.parametrize(
    ("stored", "summary", "chat", "word"),
    [("小敏", "用户的妻子，在医院上班", ["我老婆以后不吃香菜了，推荐菜谱注意", "好的"], "香菜"),
     ("Ruth", "The user's older sister, a nurse", ["my sister is allergic to shellfish, remember for recipes", "OK."],
      "shellfish")],
)  # fmt: skip
def test_the_kin_a_stored_summary_names_finds_the_person(
    tmp_path: Path, stored: str, summary: str, chat: list[str], word: str
) -> None:
    objects = _extract(tmp_path, chat, [_person(stored, "family", summary)])
    [obj] = [o for o in objects if o["type"] == "relationship"]
    assert obj["op"] == "update" and obj["name"] == stored and word in _text(obj)
    assert [w for w in _writes(objects) if w[0] == "self"] == []


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["Katie started at the new school this week, she loves it", "Great!"], "new school"),
     (["凯凯这周开始上新学校了，他很喜欢", "太好了"], "新学校")],
)  # fmt: skip
def test_a_change_that_already_happened_stays_a_fact_beside_its_day(
    tmp_path: Path, chat: list[str], word: str
) -> None:
    before = [_person("Katherine", "family", "The user's daughter"), _person("凯凯", "family", "用户的儿子")]
    [obj] = [o for o in _extract(tmp_path, chat, before) if o["type"] == "relationship"]
    assert word in _text(obj)
