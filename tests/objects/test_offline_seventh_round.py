"""Seventh-round rules of the offline extractor (found on a new author's blind set, fresh11), each in Chinese
and in English with made-up phrasings (people, projects and numbers of no evaluation case)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from savenow.objects.heuristic import _without_reason

from .test_offline_rules import _extract, _text


def _writes_of(objects: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [o for o in objects if o["type"] == kind and o["op"] != "skip"]


# -- a statement the user takes back right after is never kept ------------------------------------------------


@pytest.mark.parametrize(
    "chat",
    [["对了 我这阵子在戒糖 甜的都不吃", "好的，那甜点就不准备了。", "算了 戒糖就这几天 不用管"],
     ["oh and I'm avoiding dairy now", "OK, no dairy in the suggestions.", "never mind the dairy thing, doesn't matter"]],
)  # fmt: skip
def test_a_statement_the_user_takes_back_is_not_kept(tmp_path: Path, chat: list[str]) -> None:
    assert _writes_of(_extract(tmp_path, chat), "self") == []


@pytest.mark.parametrize(
    "chat",
    [["以后提醒我提前一天", "好的。周一要我帮你安排什么吗？", "提前一天就行 周一的事不用管"],
     ["from now on remind me a day ahead", "Sure. Want me to plan the move day too?", "the move day doesn't matter"]],
)  # fmt: skip
def test_declining_the_assistants_offer_takes_nothing_back(tmp_path: Path, chat: list[str]) -> None:
    [rule] = _writes_of(_extract(tmp_path, chat), "self")
    assert rule["key"] == "reminders"


# -- a reason given after a rule is no part of it ------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "key", "kept"),
    [("以后别发表情包了 看着累", "emoji_use", "以后别发表情包了"),
     ("表格都用 markdown 方便我转发", "formatting", "表格都用 markdown"),
     ("no calls before 9am, I'm usually at the pool", "quiet_hours", "no calls before 9am"),
     ("always a window seat, because I sleep on planes", "travel", "always a window seat")],
)  # fmt: skip
def test_the_reason_after_a_rule_is_cut(value: str, key: str, kept: str) -> None:
    assert _without_reason(value, key) == kept


def test_a_piece_that_states_the_rule_is_never_cut() -> None:
    assert (
        _without_reason("I'm vegan, so recipes should be vegan", "diet")
        == "I'm vegan, so recipes should be vegan"
    )
    assert _without_reason("以后回复短一点 我在地铁上看 最多三句", "reply_length").endswith("最多三句")


@pytest.mark.parametrize(
    ("chat", "reason"),
    [(["以后别用 emoji 了 看着幼稚", "好的。"], "幼稚"),
     (["please don't text me before 8am, I'm usually asleep after the night shift", "OK."], "asleep")],
)  # fmt: skip
def test_a_self_rule_keeps_no_reason(tmp_path: Path, chat: list[str], reason: str) -> None:
    [rule] = [
        o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] in ("emoji_use", "quiet_hours")
    ]
    assert reason not in _text(rule)


# -- a stored note named by its title again is a skip, not a topic's conclusion -----------------------------


@pytest.mark.parametrize(
    ("title", "chat"),
    [("储物间门锁密码", ["家里装修项目继续", "好的。", "储物间门锁密码还是那个 你存过的", "对，存过。"]),
     ("Storage unit code", ["back on the house refit", "Great.", "the storage unit code is the same, you have it", "Yes."])],
)  # fmt: skip
def test_a_stored_note_named_by_its_title_is_a_skip(tmp_path: Path, title: str, chat: list[str]) -> None:
    topic = {"type": "topic", "name": "家里装修" if "家" in chat[0] else "house refit", "status": "active",
             "summary": "s"}  # fmt: skip
    note = {"type": "saved", "saved_kind": "text_note", "title": title, "summary": "7 3 1 9 then the key"}
    objects = _extract(tmp_path, chat, [topic, note])
    assert [o["op"] for o in objects if o["type"] == "saved"] == ["skip"]
    assert not any(title.casefold() in _text(o).casefold() for o in _writes_of(objects, "topic"))


# -- a rule the user came back to and then settles is replaced ------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "new", "old"),
    [(["以后都用英文回复我", "好的。", "嗯 英文回复看长文章有点慢", "要换回中文吗？", "这样吧 长文章用中文 短消息用英文", "好的。"],
      "长文章用中文", "以后都用英文"),
     (["from now on reply in Spanish", "¡Claro!", "hm, Spanish replies are slow for me on work stuff", "Switch back?",
       "ok: work stuff in English, the rest in Spanish", "Sure."], "work stuff in English", "from now on")],
)  # fmt: skip
def test_a_reopened_rule_settled_without_a_standing_word_replaces_the_old(
    tmp_path: Path, chat: list[str], new: str, old: str
) -> None:
    [rule] = [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] == "language_preference"]
    assert new in _text(rule) and old not in _text(rule)


# -- an order to follow every time is a standing rule ---------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "kept"),
    [(["解释脚本的时候 先贴代码 再讲思路", "好的。"], "先贴代码"),
     (["报错信息都放代码块里", "好的。"], "代码块"),
     (["when you explain a script, code first, then the idea", "OK."], "code first")],
)  # fmt: skip
def test_an_order_to_follow_is_a_formatting_rule(tmp_path: Path, chat: list[str], kept: str) -> None:
    [rule] = _writes_of(_extract(tmp_path, chat), "self")
    assert rule["key"] == "formatting" and kept in _text(rule)


# -- the answer to the assistant's yes/no question completes an identity fact --------------------------------


@pytest.mark.parametrize(
    ("chat", "first", "then"),
    [(["新工作是在 青禾医疗 做产品经理", "恭喜！是远程吗？", "对 远程 下个月入职", "好的。"], "青禾医疗", "远程"),
     (["new job: I'm joining Fernhill Labs as a data engineer", "Congrats! Is it remote?", "yes, remote, starting in March",
       "Nice."], "Fernhill Labs", "remote")],
)  # fmt: skip
def test_an_answer_to_a_yes_no_question_completes_the_identity_fact(
    tmp_path: Path, chat: list[str], first: str, then: str
) -> None:
    [job] = [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] == "occupation"]
    assert first in _text(job) and then in _text(job)


# -- who the user is, said the way chat says it -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "key", "kept"),
    [(["live in Tromsø these days", "Nice."], "city", "Tromsø"),
     (["based in Porto now", "Cool."], "city", "Porto"),
     (["I'm a wildlife ecologist at the institute", "Great."], "occupation", "ecologist"),
     (["I'm a paediatrician, mostly night shifts", "OK."], "occupation", "paediatrician")],
)  # fmt: skip
def test_a_dropped_i_and_a_job_word_still_say_who_the_user_is(
    tmp_path: Path, chat: list[str], key: str, kept: str
) -> None:
    [fact] = [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] == key]
    assert kept in _text(fact)


# -- a person's job is a fact about them; a joke beside it is not ------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "kept", "joke"),
    [(["my brother Oskar set this up for me", "Kind of him!", "he's a pharmacist in Bergen, super nerdy lol", "Ha."],
      "pharmacist", "nerdy"),
     (["我表姐王梦琪说这个好用", "好的！", "她是一名护士 在武汉 特别啰嗦哈哈", "哈哈。"], "护士", "啰嗦")],
)  # fmt: skip
def test_a_persons_job_is_kept_without_the_joke(
    tmp_path: Path, chat: list[str], kept: str, joke: str
) -> None:
    [person] = _writes_of(_extract(tmp_path, chat), "relationship")
    assert kept in _text(person) and joke not in _text(person)


# -- under the cap: what the user eats, and a person the user says who they are, outlast reply rules ------------


def test_under_the_cap_diet_and_a_described_person_outrank_reply_rules(tmp_path: Path) -> None:
    chat = [
        "I'm Mirela", "Hi Mirela.", "I live in Lyon", "Lovely.", "I'm a structural engineer at a small firm", "Nice.",
        "I'm vegetarian, so no meat in recipes", "Noted.", "keep replies short please", "Sure.",
        "don't message me before 9am", "OK.", "my brother Tibor set you up", "Kind of him.",
        "he's a dentist in Cluj", "Great.",
    ]  # fmt: skip
    objects = _writes_of(_extract(tmp_path, chat), "self") + _writes_of(
        _extract(tmp_path, chat), "relationship"
    )
    kinds = {o.get("key") or o.get("name") for o in objects}
    assert kinds == {"name", "city", "occupation", "diet", "Tibor"}


# -- a name with a surname of its own is another person, never a variant -----------------------------------------


@pytest.mark.parametrize(
    ("stored", "said", "near"),
    [("Daniel Ho", "Daniel Park", False), ("Daniel Ho", "Dan", True), ("Daniel Ho", "Dan H.", True),
     ("Daniel Ho", "Dan Ho", True), ("Margaret Lowe", "Margaret Quinn", False)],
)  # fmt: skip
def test_two_full_names_with_different_surnames_are_two_people(stored: str, said: str, near: bool) -> None:
    from savenow.objects.model import near_name

    assert near_name(said, stored) is near


@pytest.mark.parametrize(
    ("stored", "chat"),
    [("Daniel Ho", ["Daniel Park from the lab is allergic to nuts", "Noted."]),
     ("周雨桐", ["李雨桐以后负责我们的报销", "好的。"])],
)  # fmt: skip
def test_a_name_with_another_surname_is_not_the_stored_person(
    tmp_path: Path, stored: str, chat: list[str]
) -> None:
    person = {"type": "relationship", "name": stored, "relation": "friend", "summary": "s"}
    updates = [
        o for o in _extract(tmp_path, chat, [person]) if o["type"] == "relationship" and o["op"] == "update"
    ]
    assert updates == []


@pytest.mark.parametrize(
    ("stored", "chat"),
    [("Daniel Ho", ["Dan is allergic to nuts now", "Noted."]), ("周雨桐", ["雨桐以后负责我们的报销", "好的。"])],
)  # fmt: skip
def test_a_short_form_is_still_the_stored_person(tmp_path: Path, stored: str, chat: list[str]) -> None:
    person = {"type": "relationship", "name": stored, "relation": "friend", "summary": "s"}
    [update] = [o for o in _extract(tmp_path, chat, [person]) if o["type"] == "relationship"]
    assert update["op"] == "update" and update["name"] == stored


# -- a new way to reach a person is a fact about them, not a topic's conclusion -----------------------------------


@pytest.mark.parametrize(
    ("chat", "kept"),
    [(["Marek was great on the loft job", "Good to hear.", "oh and he's got a new number, 071 220 4413", "Noted."],
      "071 220 4413"),
     (["老周那边的活干完了", "好的。", "对了 他换了新号码 139 0012 7788", "收到。"], "139 0012 7788")],
)  # fmt: skip
def test_a_new_number_is_the_persons_fact(tmp_path: Path, chat: list[str], kept: str) -> None:
    name = "Marek" if "Marek" in chat[0] else "老周"
    topic = {
        "type": "topic",
        "name": "loft job" if name == "Marek" else "老房翻新",
        "status": "active",
        "summary": "s",
    }
    person = {
        "type": "relationship",
        "name": name,
        "relation": "builder",
        "summary": f"builder on the {topic['name']}",
    }
    objects = _extract(tmp_path, chat, [topic, person])
    [update] = _writes_of(objects, "relationship")
    assert kept in _text(update)
    assert not any(kept in _text(o) for o in _writes_of(objects, "topic"))


# -- how the user learns best --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "kept"),
    [(["我发现我记公式 先推导一遍再默写 记得最牢", "好方法。"], "先推导"),
     (["I remember vocab best when I write it out by hand", "Nice."], "by hand")],
)  # fmt: skip
def test_what_the_user_remembers_best_is_their_study_method(
    tmp_path: Path, chat: list[str], kept: str
) -> None:
    [method] = [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] == "study_method"]
    assert kept in _text(method)


# -- a new project named in the answer to the assistant's "what's it called?" --------------------------------------


@pytest.mark.parametrize(
    ("chat", "name"),
    [(["我想把吉他捡起来 开个练习计划", "好呀，有名字吗？", "就叫 指弹入门 吧 每天半小时", "好的。"], "指弹入门"),
     (["I'm starting a new project for the allotment co-op", "Nice! What's it called?", "call it Seedbank, a seed swap site",
       "Great."], "Seedbank")],
)  # fmt: skip
def test_a_new_project_named_in_the_answer(tmp_path: Path, chat: list[str], name: str) -> None:
    [topic] = _writes_of(_extract(tmp_path, chat), "topic")
    assert topic["op"] == "create" and topic["name"] == name


# -- how many are left today is no conclusion --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "count"),
    [(["手作皂小店 先暂停了", "好的。还剩多少货？", "薰衣草的 还剩 14 块 柠檬的 还有 6 盒", "好的。"], "6 盒"),
     (["pausing the candle shop for now", "OK. How much stock is left?", "about 9 jars left, 3 tins in stock", "OK."],
      "9 jars")],
)  # fmt: skip
def test_a_stock_count_is_not_a_topic_conclusion(tmp_path: Path, chat: list[str], count: str) -> None:
    name = "手作皂小店" if "手作皂" in chat[0] else "candle shop"
    [topic] = _writes_of(_extract(tmp_path, chat, [{"type": "topic", "name": name, "status": "active",
                                                    "summary": "s"}]), "topic")  # fmt: skip
    assert topic["status"] == "paused" and count not in _text(topic)


# -- two style keys, each in a clause of its own, are two objects -------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "length", "formatting"),
    [(["以后回复八行以内，表格用 markdown", "好的。"], "八行以内", "markdown"),
     (["from now on keep replies to five lines at most, tables in markdown", "OK."], "five lines", "markdown")],
)  # fmt: skip
def test_two_style_keys_in_their_own_clauses_are_two_objects(
    tmp_path: Path, chat: list[str], length: str, formatting: str
) -> None:
    rules = {o["key"]: _text(o) for o in _writes_of(_extract(tmp_path, chat), "self")}
    assert length in rules["reply_length"] and formatting not in rules["reply_length"]
    assert formatting in rules["formatting"]


def test_a_clause_about_the_first_key_stays_with_it(tmp_path: Path) -> None:
    chat = ["以后回复别超过 300 字，代码块不算字数", "好的。"]
    rules = {o["key"]: _text(o) for o in _writes_of(_extract(tmp_path, chat), "self")}
    assert set(rules) == {"reply_length"} and "代码块不算字数" in rules["reply_length"]


# -- a place the user says they are in and names again is their city ---------------------------------------------


def test_a_place_named_twice_is_the_users_city(tmp_path: Path) -> None:
    chat = ["我在绍兴，天气默认按绍兴查", "好的。"]
    [city] = [o for o in _writes_of(_extract(tmp_path, chat), "self") if o["key"] == "city"]
    assert "绍兴" in _text(city)


def test_being_somewhere_once_is_no_city(tmp_path: Path) -> None:
    chat = ["我在开会，等下再说", "好的。"]
    assert _writes_of(_extract(tmp_path, chat), "self") == []


# -- a rule for how the user treats others, asked to be remembered, stays a note ------------------------------------


@pytest.mark.parametrize(
    ("chat", "kept"),
    [(["帮我记一下 以后给客户报价一律按含税价报", "好的。"], "含税价"),
     (["remember this: quotes to clients are always in EUR incl. VAT", "Noted."], "EUR")],
)  # fmt: skip
def test_a_rule_toward_clients_is_a_saved_note(tmp_path: Path, chat: list[str], kept: str) -> None:
    objects = _extract(tmp_path, chat)
    [note] = _writes_of(objects, "saved")
    assert kept in _text(note) and _writes_of(objects, "self") == []


@pytest.mark.parametrize(
    "chat",
    [
        ["帮我记住 以后价格都用欧元给我看", "好的。"],
        ["remember this: always show me prices in EUR", "Noted."],
    ],
)
def test_a_rule_for_the_user_remembered_is_their_self_object(tmp_path: Path, chat: list[str]) -> None:
    objects = _extract(tmp_path, chat)
    assert [o["key"] for o in _writes_of(objects, "self")] == ["units"] and _writes_of(objects, "saved") == []


# -- an abbreviation's dot ends no sentence ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [("i want all prices shown incl. VAT in your answers", 1), ("commits: scope required, e.g. fix(api)", 1),
     ("以后报价都写 excl. VAT 的价格", 1), ("Prices incl. VAT. Thanks for that", 2)],
)  # fmt: skip
def test_an_abbreviation_does_not_end_a_sentence(text: str, count: int) -> None:
    from savenow.objects.heuristic import sentences

    assert len(sentences(text)) == count


@pytest.mark.parametrize(
    "chat",
    [["i want all prices shown incl. VAT in your answers", "OK."], ["以后价格都显示 incl. VAT 的", "好的。"]],
)
def test_a_rule_with_an_abbreviation_is_kept_whole(tmp_path: Path, chat: list[str]) -> None:
    [rule] = _writes_of(_extract(tmp_path, chat), "self")
    assert rule["key"] == "units" and "VAT" in _text(rule)


# -- review mends: ordinary chat that the seventh round's cues misread --------------------------------------


@pytest.mark.parametrize(
    "chat",
    [["我在开会，开会结束再回你。以后回复短一点", "好的。"],
     ["这个函数我都写好了 贴代码给你看看", "好的，发过来吧。"],
     ["honestly I'm an eternal optimist about deadlines", "Ha, noted."]],
)  # fmt: skip
def test_a_busy_place_a_finished_task_or_an_attitude_is_no_self_fact(tmp_path: Path, chat: list[str]) -> None:
    keys = {o["key"] for o in _writes_of(_extract(tmp_path, chat), "self")}
    assert not keys & {"city", "formatting", "occupation"}


def test_a_meeting_is_no_new_project(tmp_path: Path) -> None:
    chat = ["明天开个会聊项目进度", "好的，要准备什么？", "叫上小王一起"]
    assert _writes_of(_extract(tmp_path, chat), "topic") == []


def test_a_thousands_separator_stays_inside_the_fact(tmp_path: Path) -> None:
    chat = ["my cousin Mei is a tutor now, she charges 1,200 a month haha", "Nice."]
    texts = [_text(o) for o in _extract(tmp_path, chat)]
    assert not any("charges 1" in t and "1,200" not in t for t in texts)


def test_a_dismissal_sharing_only_a_common_word_takes_nothing_back(tmp_path: Path) -> None:
    chat = ["I'm vegetarian, have been for years", "Got it.", "never mind, I have the menu already"]
    assert [o["key"] for o in _writes_of(_extract(tmp_path, chat), "self")] == ["diet"]
