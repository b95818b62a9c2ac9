"""One test per general rule of the offline extractor, in Chinese and in English. The phrasings are
made up for the rule (people, projects and numbers of no evaluation case)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from savenow.clock import Clock
from savenow.models import ChatMessage
from savenow.objects.extract import plan
from savenow.objects.heuristic import OfflineObjectExtractor, clauses
from savenow.objects.model import parse_upsert
from savenow.objects.store import ObjectStore


def _extract(
    tmp_path: Path, chat: list[str], before: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    store = ObjectStore(tmp_path, Clock(tz=UTC, fixed=datetime(2026, 11, 20, 20, tzinfo=UTC)))
    if before:
        store.upsert(parse_upsert(before), allow_near=True)
    messages = [
        ChatMessage(role="user" if i % 2 == 0 else "assistant", text=text, timestamp="2026-11-20T10:00:00Z")
        for i, text in enumerate(chat)
    ]
    stored = store.load()
    return [
        p.to_json()
        for p in plan(OfflineObjectExtractor().propose(messages, stored).candidates, store, stored).proposals
    ]


def _self_summary(objects: list[dict[str, Any]], key: str) -> str:
    """The summary of the one self object proposed (not skipped) for ``key``."""
    [obj] = [o for o in objects if o["type"] == "self" and o.get("key") == key and o["op"] != "skip"]
    return str(obj["summary"])


def _self_keys(objects: list[dict[str, Any]]) -> list[str]:
    return [str(o.get("key")) for o in objects if o["type"] == "self" and o["op"] != "skip"]


def _writes(objects: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [
        (o["type"], o["op"], o.get("key") or o.get("name") or o.get("title") or "")
        for o in objects
        if o["op"] != "skip"
    ]


def _text(obj: dict[str, Any]) -> str:
    parts = [str(obj.get(k) or "") for k in ("summary", "detail", "name", "title")]
    parts += [str(v) for k in ("facts", "recent_conclusions", "open_questions") for v in obj.get(k) or []]
    return "\n".join(parts)


def _person(name: str, relation: str = "friend", summary: str = "s") -> dict[str, Any]:
    return {"type": "relationship", "name": name, "relation": relation, "summary": summary}


def _topic(name: str, status: str = "active", summary: str = "s") -> dict[str, Any]:
    return {"type": "topic", "name": name, "status": status, "summary": summary}


def test_a_thousands_separator_is_not_a_clause_break() -> None:
    assert clauses("the quote is 12,500 EUR, due in May") == ["the quote is 12,500 EUR,", "due in May"]
    assert clauses("报价 12,500 元，五月付") == ["报价 12,500 元，", "五月付"]


def test_a_project_name_keeps_its_number_and_closing_head_noun(tmp_path: Path) -> None:
    chat = [
        "I'm starting a new project: the big thing is the Phase 3 migration: moving billing to Postgres",
        "OK.",
    ]
    [obj] = [o for o in _extract(tmp_path, chat) if o["type"] == "topic"]
    assert obj["name"] == "Phase 3 migration"


@pytest.mark.parametrize(
    ("said", "name"),
    [("me and Nadia, she's my business partner, she runs the accounts", "Nadia"),
     ("小林，她是我合伙人，负责所有的报销和对账", "小林")],
)  # fmt: skip
def test_a_person_introduced_by_apposition_with_a_pronoun(tmp_path: Path, said: str, name: str) -> None:
    assert ("relationship", "create", name) in _writes(_extract(tmp_path, [said, "OK."]))


@pytest.mark.parametrize(
    ("said", "city"),
    [("I run a tiny bakery in Porto, mostly sourdough", "Porto"), ("我在苏州开了一家花店，主要做婚礼花艺", "苏州")],
)  # fmt: skip
def test_one_clause_can_state_occupation_and_city(tmp_path: Path, said: str, city: str) -> None:
    objs = {o["key"]: o for o in _extract(tmp_path, [said, "Nice."]) if o["type"] == "self"}
    assert set(objs) == {"occupation", "city"} and city in objs["city"]["summary"]


@pytest.mark.parametrize(
    ("said", "asked"),
    [("everyone calls me Bex", False), ("you can call me Bex", True),
     ("大家都叫我胖虎", False), ("叫我老周就行", True)],
)  # fmt: skip
def test_a_nickname_is_a_request_not_a_description(tmp_path: Path, said: str, asked: bool) -> None:
    keys = [o.get("key") for o in _extract(tmp_path, [said, "OK."])]
    assert ("nickname" in keys) is asked


@pytest.mark.parametrize(
    ("stored", "said", "word"),
    [("爸爸", "我爸下个月就退休了，以后每天去公园下棋", "退休"),
     ("Mom", "my mum was diagnosed with high blood pressure last month", "blood pressure")],
)  # fmt: skip
def test_a_kinship_form_is_the_stored_relative(tmp_path: Path, stored: str, said: str, word: str) -> None:
    [obj] = _extract(tmp_path, [said, "I see."], [_person(stored, "family")])
    assert (obj["type"], obj["op"], obj["name"]) == ("relationship", "update", stored) and word in _text(obj)
    assert "variant" not in obj


@pytest.mark.parametrize(
    ("name", "chat", "word"),
    [("小雨", ["小雨周末来家里吃饭", "好的。", "菜单你帮我想想，记得她对花生过敏", "好。"], "花生"),
     ("Tom", ["Tom is coming over on Friday", "Nice.", "plan a menu, and note he's allergic to shellfish", "OK."],
      "shellfish")],
)  # fmt: skip
def test_a_pronoun_right_before_a_durable_cue_is_about_the_last_person(
    tmp_path: Path, name: str, chat: list[str], word: str
) -> None:
    objs = _extract(tmp_path, chat, [_person(name)])
    assert _writes(objs) == [("relationship", "update", name)]  # never the user's own diet
    assert word in _text(objs[0])


@pytest.mark.parametrize(
    ("name", "said", "passing"),
    [("Gran", "Gran's fine, a bit shaken, but she no longer drives", "shaken"),
     ("老周", "老周还好，就是有点累，不过他以后不再出差了", "有点累")],
)  # fmt: skip
def test_a_fact_starts_at_its_durable_clause(tmp_path: Path, name: str, said: str, passing: str) -> None:
    [obj] = _extract(tmp_path, [said, "Good."], [_person(name)])
    assert obj["op"] == "update" and passing not in _text(obj)


@pytest.mark.parametrize(
    ("name", "chat", "word"),
    [("Gran", ["Gran can't manage the stairs now", "Has she found somewhere?",
               "Oakfield, the care home near us. she moves in on the 3rd", "Good."], "Oakfield"),
     ("姥姥", ["姥姥腿脚不方便了，一个人住不了", "找好地方了吗？", "城东那家养老院，环境不错。她下个月住进去", "好的。"],
      "养老院")],
)  # fmt: skip
def test_an_answer_before_the_pronoun_sentence_is_about_the_same_person(
    tmp_path: Path, name: str, chat: list[str], word: str
) -> None:
    [obj] = [o for o in _extract(tmp_path, chat, [_person(name, "family")]) if o["type"] == "relationship"]
    assert word in _text(obj)


@pytest.mark.parametrize(
    ("chat", "final", "old"),
    [(["以后提醒都提前 15 分钟", "好的。", "15 分钟不够，统一提前半小时吧", "好的。"], "半小时", "15 分钟"),
     (["remind me 10 minutes before things from now on", "OK.", "10 minutes is too tight, make it an hour ahead",
       "OK."], "an hour ahead", "10 minutes")],
)  # fmt: skip
def test_a_lead_time_is_the_reminders_rule_and_the_last_one_wins(
    tmp_path: Path, chat: list[str], final: str, old: str
) -> None:
    [obj] = _extract(tmp_path, chat)
    assert obj["key"] == "reminders" and final in obj["summary"] and old not in obj["summary"]


@pytest.mark.parametrize(
    "said",
    ["from January I work from home Mondays to Wednesdays", "我以后每周二、周四在家办公，其他时间去公司"],
)
def test_a_work_arrangement_is_work_hours(tmp_path: Path, said: str) -> None:
    assert _writes(_extract(tmp_path, [said, "OK."])) == [("self", "create", "work_hours")]


@pytest.mark.parametrize(
    ("topic", "said"),
    [("Homelab", "never reboot anything on the homelab without asking me first"),
     ("家里 NAS", "以后 NAS 上删文件之前都先让我确认")],
)  # fmt: skip
def test_asking_before_acting_is_the_users_rule_even_about_a_topic(
    tmp_path: Path, topic: str, said: str
) -> None:
    objs = _extract(tmp_path, [said, "Understood."], [_topic(topic)])
    assert ("self", "create", "confirmation") in _writes(objs)


@pytest.mark.parametrize(
    "chat",
    [["also remember the cabin wifi password is pinecone42", "OK."],
     ["记住这个：小屋的 wifi 密码是 pinecone42", "好的。"],
     ["remember this: the cabin wifi password is pinecone42", "OK."]],
)  # fmt: skip
def test_remember_as_an_imperative_and_pointing_ahead(tmp_path: Path, chat: list[str]) -> None:
    [obj] = _extract(tmp_path, chat)
    assert (obj["type"], obj["op"]) == ("saved", "create") and "pinecone42" in obj["summary"]
    assert _writes(_extract(tmp_path / "b", ["I remember when the wifi was free", "Ha."])) == []


@pytest.mark.parametrize(
    ("name", "said"),
    [("Sam", "remember this: the cabin costs 900 for the weekend, split three ways, Sam collects it"),
     ("阿峰", "帮我记住：露营的钱每人 300，阿峰统一收")],
)  # fmt: skip
def test_an_arrangement_that_involves_a_person_is_still_a_note(tmp_path: Path, name: str, said: str) -> None:
    objs = _extract(tmp_path, [said, "Saved."], [_person(name)])
    assert [o["type"] for o in objs if o["op"] == "create"] == ["saved"]


@pytest.mark.parametrize(
    ("chat", "title"),
    [(["烤面包：高筋粉 500 克，水 350 克，盐 10 克", "好。", "帮我记住这个面包配方，以后都按这个做", "好的。"], "面包配方"),
     (["the good espresso was 18 g in, 36 g out, 28 seconds", "Nice.", "remember this espresso recipe for me",
       "Saved."], "espresso recipe")],
)  # fmt: skip
def test_a_saved_note_is_titled_by_what_the_user_calls_it(
    tmp_path: Path, chat: list[str], title: str
) -> None:
    [obj] = _extract(tmp_path, chat)
    assert obj["type"] == "saved" and title in obj["title"]


@pytest.mark.parametrize(
    ("said", "word"),
    [("记住：我们几个约好了，年夜饭每家出 800，轮流做东", "800"),
     ("remember this: for long exposures, ISO 100 and f/8 was the sweet spot", "ISO 100")],
)  # fmt: skip
def test_a_long_note_is_titled_by_its_telling_clause(tmp_path: Path, said: str, word: str) -> None:
    [obj] = _extract(tmp_path, [said, "Saved."])
    assert word in obj["title"]


@pytest.mark.parametrize(
    ("topic", "said"),
    [("Magpie", "ok I'm calling it on Magpie, there's no point continuing"),
     ("读书打卡小程序", "读书打卡小程序没必要继续了，微信官方出了一样的功能")],
)  # fmt: skip
def test_stopping_a_project_archives_it(tmp_path: Path, topic: str, said: str) -> None:
    [obj] = _extract(tmp_path, [said, "OK."], [_topic(topic)])
    assert (obj["op"], obj["status"]) == ("update", "archived")


@pytest.mark.parametrize(
    "said",
    [
        "commit messages: present tense, scope prefix, under 60 characters",
        "提交信息：中文，动词开头，不加句号",
    ],
)
def test_a_key_spelled_out_after_a_colon_is_a_standing_rule(tmp_path: Path, said: str) -> None:
    assert _writes(_extract(tmp_path, [said, "OK."])) == [("self", "create", "code_style")]


def test_a_restated_value_counts_whole_words_and_chinese_pairs(tmp_path: Path) -> None:
    before = [{"type": "self", "category": "working_style", "key": "tools", "summary": "Emacs on Arch Linux"}]
    assert _extract(tmp_path, ["I'll archive the old repo", "OK."], before) == []
    before = [{"type": "self", "category": "identity", "key": "occupation", "summary": "在顺丰做运营主管"}]
    objs = _extract(
        tmp_path / "b", ["年底了运营这边特别忙", "辛苦。", "对，还在顺丰，主管不好当", "加油。"], before
    )
    assert [(o["key"], o["op"]) for o in objs] == [("occupation", "skip")]


@pytest.mark.parametrize(
    ("stored", "said", "new"),
    [("老孙", "老孙下个月调去深圳了，以后报销找他手下的小郑对接", "小郑"),
     ("Priya", "Priya moves to the platform team, Leo takes over the on-call rota", "Leo")],
)  # fmt: skip
def test_a_later_clause_can_introduce_a_second_person(
    tmp_path: Path, stored: str, said: str, new: str
) -> None:
    writes = _writes(_extract(tmp_path, [said, "Got it."], [_person(stored, "colleague")]))
    assert ("relationship", "update", stored) in writes and ("relationship", "create", new) in writes
    assert _writes(_extract(tmp_path / "b", ["这个小程序的后台要重做，以后对接走工单", "好。"])) == []


@pytest.mark.parametrize(
    ("topic", "chat", "word"),
    [("Home server", ["the home server fell over again", "Logs?", "disk full from old snapshots", "Prune them?",
                      "switched the backups to restic with a 30-day retention", "Good."], "restic"),
     ("家里 NAS", ["NAS 又卡死了", "看下负载？", "是索引把 CPU 吃满了", "可以限速。", "改成了 nice -n 19 跑索引", "好。"],
      "nice")],
)  # fmt: skip
def test_a_lasting_change_in_a_topics_thread_is_its_conclusion(
    tmp_path: Path, topic: str, chat: list[str], word: str
) -> None:
    [obj] = _extract(tmp_path, chat, [_topic(topic)])
    assert (obj["type"], obj["op"]) == ("topic", "update") and word in _text(obj)


@pytest.mark.parametrize(
    ("stored", "relation", "said"),
    [("Dev", "husband", "my husband doesn't eat pork, so skip pork recipes"),
     ("阿凯", "老公", "我老公不吃香菜，以后推荐菜谱别放")],
)  # fmt: skip
def test_a_person_named_by_their_stored_relation(
    tmp_path: Path, stored: str, relation: str, said: str
) -> None:
    assert _writes(_extract(tmp_path, [said, "OK."], [_person(stored, relation)])) == [
        ("relationship", "update", stored)
    ]


@pytest.mark.parametrize(
    ("said", "key"),
    [("please be more casual with me, no corporate speak", "tone"), ("no emojis in work messages please", "emoji_use"),
     ("以后说话直接一点，别客套", "tone"), ("I'm in Tokyo, so use JST for everything", "timezone")],
)  # fmt: skip
def test_an_imperative_about_replies_is_a_standing_rule(tmp_path: Path, said: str, key: str) -> None:
    assert _writes(_extract(tmp_path, [said, "OK."])) == [("self", "create", key)]


@pytest.mark.parametrize(
    ("chat", "final"),
    [(["please reply in English", "OK.", "actually no, Chinese is better, keep English for code terms", "OK."],
      "Chinese"),
     (["我不吃辣", "好。", "其实微辣可以，特辣不行", "好。"], "微辣")],
)  # fmt: skip
def test_a_follow_up_to_the_users_own_preference_replaces_it(
    tmp_path: Path, chat: list[str], final: str
) -> None:
    [obj] = _extract(tmp_path, chat)
    assert obj["type"] == "self" and final in obj["summary"]


@pytest.mark.parametrize(
    "chat", [["remember, the dentist is at 3pm tomorrow", "OK."], ["记住明天下午 3 点去牙医", "好。"]]
)
def test_a_remembered_one_off_is_a_reminder_not_a_note(tmp_path: Path, chat: list[str]) -> None:
    assert _writes(_extract(tmp_path, chat)) == []


@pytest.mark.parametrize(
    ("said", "name"),
    [("we hired a new designer, Priyanka, she'll own the brand guidelines", "Priyanka"),
     ("我们组新来了个实习生叫小邓，以后周报让他来汇总", "小邓"),
     ("我有个合伙人叫陈曦，她负责商务和报价", "陈曦")],
)  # fmt: skip
def test_a_new_person_introduced_by_role(tmp_path: Path, said: str, name: str) -> None:
    assert _writes(_extract(tmp_path, [said, "OK."])) == [("relationship", "create", name)]


def test_the_bare_relation_word_names_the_stored_person_in_chinese(tmp_path: Path) -> None:
    objs = _extract(tmp_path, ["周末带儿子去吃饭，他对虾过敏", "好的。"], [_person("乐乐", "儿子")])
    assert _writes(objs) == [("relationship", "update", "乐乐")] and "虾" in _text(objs[0])


@pytest.mark.parametrize(
    ("said", "key"),
    [("我在杭州做独立设计师，主要接品牌 logo 的活", "occupation"), ("I work as a sound engineer at a small studio", "occupation")],
)  # fmt: skip
def test_what_the_user_does_for_a_living(tmp_path: Path, said: str, key: str) -> None:
    assert ("self", "create", key) in _writes(_extract(tmp_path, [said, "Nice."]))


@pytest.mark.parametrize(
    ("said", "name"),
    [("现在手上最大的事是「青柚」品牌升级，预算 8 万", "青柚"), ("right now the big thing is the Harbor app: a ferry timetable", "Harbor app")],
)  # fmt: skip
def test_the_users_main_project_is_a_new_topic(tmp_path: Path, said: str, name: str) -> None:
    assert _writes(_extract(tmp_path, [said, "OK."])) == [("topic", "create", name)]


@pytest.mark.parametrize(
    ("topic", "said", "old", "new"),
    [("Atlas", "the Atlas deadline was March, now it's April 30 because of the audit", "March", "April 30"),
     ("青柚", "青柚原来定的是十月交付，现在推迟到十二月了", "十月", "十二月")],
)  # fmt: skip
def test_a_topics_superseded_value_stays_out(
    tmp_path: Path, topic: str, said: str, old: str, new: str
) -> None:
    [obj] = _extract(tmp_path, [said, "OK."], [_topic(topic)])
    assert new in _text(obj) and old not in "\n".join(obj["recent_conclusions"])


@pytest.mark.parametrize(
    ("topic", "chat"),
    [("Wedding", ["the wedding venue emailed", "What did they say?", "switched to the other card, paid the EUR 500 deposit",
                  "OK."]),
     ("婚礼", ["婚礼场地那边来消息了", "说了什么？", "换成了用招行卡付定金 5000", "好。"])],
)  # fmt: skip
def test_a_payment_in_a_topics_thread_is_not_a_conclusion(
    tmp_path: Path, topic: str, chat: list[str]
) -> None:
    assert _writes(_extract(tmp_path, chat, [_topic(topic)])) == []


@pytest.mark.parametrize(
    ("stored", "summary", "said"),
    [("Priya", "SRE, the escalation contact for Postgres at Monzo", "Priya is still the Postgres escalation contact at Monzo"),
     ("王阿姨", "家里的钟点工，每周二、周五来", "王阿姨还是每周二、周五来")],
)  # fmt: skip
def test_a_restated_person_fact_is_a_skip(tmp_path: Path, stored: str, summary: str, said: str) -> None:
    objs = _extract(tmp_path, [said, "OK."], [_person(stored, "colleague", summary)])
    assert [(o["name"], o["op"]) for o in objs] == [(stored, "skip")]


def test_the_same_words_with_a_change_are_a_new_fact(tmp_path: Path) -> None:
    before = [_person("Priya", "colleague", "SRE, the escalation contact for Postgres at Monzo")]
    objs = _extract(tmp_path, ["Priya is no longer the Postgres escalation contact at Monzo", "OK."], before)
    assert [(o["name"], o["op"]) for o in objs] == [("Priya", "update")]


@pytest.mark.parametrize(
    ("stored", "said"),
    [("Jennifer Wu", "Jenny 下个月调去新加坡 office 了"), ("Katherine Moss", "Katie is moving to the Leeds office in May")],
)  # fmt: skip
def test_a_pet_form_of_a_first_name_is_that_person(tmp_path: Path, stored: str, said: str) -> None:
    [obj] = _extract(tmp_path, [said, "OK."], [_person(stored, "colleague")])
    assert (obj["op"], obj["name"]) == ("update", stored) and obj["variant"] in said


@pytest.mark.parametrize(
    ("stored", "said"),
    [("李建华", "李总下周开始负责华东区"), ("Joanna", "Joanna leads QA starting next month")],
)  # fmt: skip
def test_a_change_starting_later_is_durable_not_a_one_off(tmp_path: Path, stored: str, said: str) -> None:
    assert _writes(_extract(tmp_path, [said, "OK."], [_person(stored, "colleague")])) == [
        ("relationship", "update", stored)
    ]


@pytest.mark.parametrize(
    ("chat", "key", "word"),
    [(["晚上 11 点以后别给我发消息", "好。", "改一下，10 点以后就别发了", "好。"], "quiet_hours", "10 点"),
     (["I usually work 10 to 6", "OK.", "actually I start at 8 now, finish at 4", "OK."], "work_hours", "8"),
     (["我最近换成 Zed 了，不用 VS Code 了", "好。"], "tools", "Zed"),
     (["以后金额都用 HKD，含税", "好。"], "units", "HKD")],
)  # fmt: skip
def test_more_phrasings_of_the_users_own_rules(tmp_path: Path, chat: list[str], key: str, word: str) -> None:
    [obj] = _extract(tmp_path, chat)
    assert obj["key"] == key and word in obj["summary"]


def test_a_non_family_role_alone_does_not_name_the_stored_person(tmp_path: Path) -> None:
    before = [_person("刘总", "客户")]
    assert _writes(_extract(tmp_path, ["新客户以后每周一要报表", "好。"], before)) == []
    assert _writes(_extract(tmp_path / "b", ["我的客户以后每周一要报表", "好。"], before)) == [
        ("relationship", "update", "刘总")
    ]


@pytest.mark.parametrize(
    ("said", "name"),
    [("the main thing I'm working on now is the Orchard API: a REST layer over our inventory DB", "Orchard API"),
     ("我在做一个叫「拾光」的相册小程序，用 Taro 写", "拾光")],
)  # fmt: skip
def test_what_the_user_is_working_on_by_name_is_a_new_topic(tmp_path: Path, said: str, name: str) -> None:
    assert _writes(_extract(tmp_path, [said, "Nice."])) == [("topic", "create", name)]
    assert _writes(_extract(tmp_path / "b", ["I'm working on the report for tomorrow", "OK."])) == []
