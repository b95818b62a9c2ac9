"""Fifth-round rules of the offline extractor (found on a new author's blind set, fresh7), each in Chinese
and in English with made-up phrasings (people, projects and numbers of no evaluation case): who states a
fact and about whom, answers to the assistant's questions, open questions answered, values corrected or
superseded, what is a one-off, and the subject of a saved note."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from savenow.objects.heuristic import _replacement_pair, _same_setting_new_value
from savenow.objects.wording import salient_tokens

from .test_offline_rules import _extract, _person, _text, _topic, _writes


def _only(objects: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    [obj] = [o for o in objects if o["type"] == kind and o["op"] != "skip"]
    return obj


def _topic_q(name: str, question: str) -> dict[str, Any]:
    return {"type": "topic", "name": name, "status": "active", "summary": "s", "open_questions": [question]}


# -- topics: open questions, tickets, questions without a mark, plans, superseded values -------------------


@pytest.mark.parametrize(
    ("question", "chat", "word"),
    [("Which CDN for the assets?", ["ok the CDN for assets is settled, Bunny, cheaper", "Nice."], "Bunny"),
     ("要不要加 WebSocket", ["WebSocket 那个定了 先不加 轮询够用", "好"], "轮询"),
     ("Maximum batch size?", ["max batch is 500, we tested it", "Good."], "500")],
)  # fmt: skip
def test_an_answer_to_a_stored_open_question_is_that_topics(
    tmp_path: Path, question: str, chat: list[str], word: str
) -> None:
    objs = _extract(tmp_path, chat, [_topic_q("Harbor sync", question)])
    assert word in _text(_only(objs, "topic"))


@pytest.mark.parametrize(
    "chat",
    [["Harbor sync: #412 says the retry loop hangs", "Looks like a missing timeout."],
     ["Harbor sync 那边 #88 说导出乱码", "可能是编码问题。"]],
)  # fmt: skip
def test_a_ticket_number_is_one_incident_not_a_conclusion(tmp_path: Path, chat: list[str]) -> None:
    objs = _extract(tmp_path, chat, [_topic("Harbor sync")])
    assert not [o for o in objs if o["type"] == "topic" and o["op"] != "skip" and "#" in _text(o)]


def test_a_question_without_its_mark_is_no_conclusion(tmp_path: Path) -> None:
    objs = _extract(tmp_path, ["what's 40 boxes of the Harbor sync order if one is 12.50", "500."],
                    [_topic("Harbor sync")])  # fmt: skip
    assert [o for o in objs if o["type"] == "topic" and o["op"] != "skip"] == []


@pytest.mark.parametrize(
    ("chat", "new", "old"),
    [(["Harbor sync: the rate is 40 an hour, decided", "OK.", "ok the rate is 45 then, decided", "OK."], "45", "40"),
     (["青柠台灯定价就定 99 吧", "好", "青柠台灯定价就 109 吧 不凑整了", "好"], "109", "99")],
)  # fmt: skip
def test_a_later_value_of_the_same_setting_supersedes_the_earlier(
    tmp_path: Path, chat: list[str], new: str, old: str
) -> None:
    name = "Harbor sync" if chat[0].startswith("Harbor") else "青柠台灯"
    text = _text(_only(_extract(tmp_path, chat, [_topic(name)]), "topic"))
    assert new in text and f"{old} " not in text and not text.endswith(old)


def test_same_setting_needs_the_same_words_before_the_number() -> None:
    assert _same_setting_new_value("the rate is 40 an hour", "the rate is 45 then")
    assert not _same_setting_new_value("the rate is 40 an hour", "we need 45 boxes")
    assert _same_setting_new_value("台灯定价就定 99 吧", "台灯定价就 109 吧")


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["Harbor sync is back on", "Great.", "Owen says he can only review on Fridays now", "OK.",
       "planning to ship v2.1 in March", "OK."], "v2.1"),
     (["青柠台灯又捡起来了", "好", "Owen 说他以后只能周五看稿", "好", "打算 3 月发 v2.1", "好"], "v2.1")],
)  # fmt: skip
def test_a_person_of_the_project_keeps_its_thread(tmp_path: Path, chat: list[str], word: str) -> None:
    name = "Harbor sync" if "Harbor" in chat[0] else "青柠台灯"
    before = [_topic(name, "paused"), _person("Owen", "colleague", f"works on {name} with the user")]
    assert word in _text(_only(_extract(tmp_path, chat, before), "topic"))


@pytest.mark.parametrize(
    ("name", "chat"),
    [("the pantry rebuild", ["pantry rebuild is finished, went with oak shelves", "Nice.",
                             "so that project's done", "OK."]),
     ("储物间改造", ["储物间改造弄完了 最后选了橡木 这个项目不做了", "好"])],
)  # fmt: skip
def test_a_finished_project_is_archived(tmp_path: Path, name: str, chat: list[str]) -> None:
    assert _only(_extract(tmp_path, chat, [_topic(name)]), "topic")["status"] == "archived"


def test_a_long_run_together_chinese_name_is_found_by_three_characters(tmp_path: Path) -> None:
    objs = _extract(tmp_path, ["抖音号那边先暂停吧", "好的"], [_topic("青柠抖音号运营"), _topic("青柠年货")])
    assert _only(objs, "topic")["name"] == "青柠抖音号运营"


def test_a_short_first_word_of_a_name_finds_the_topic(tmp_path: Path) -> None:
    objs = _extract(
        tmp_path, ["k8s upgrade: we decided on 1.31 for all clusters", "OK."], [_topic("k8s upgrade")]
    )
    assert "1.31" in _text(_only(objs, "topic"))
    objs = _extract(tmp_path / "b", ["ops 升级 决定用 1.31", "好"], [_topic("ops 升级")])
    assert "1.31" in _text(_only(objs, "topic"))


# -- self: group decisions, reopened rules, bare answers, the nickname, restated values ----------------------


@pytest.mark.parametrize(
    "chat",
    [["we decided every report table uses bullet points, the team agreed", "OK."],
     ["我们决定 周报都用表格 团队都同意了", "好"]],
)  # fmt: skip
def test_a_groups_decision_is_no_self_rule(tmp_path: Path, chat: list[str]) -> None:
    assert [w for w in _writes(_extract(tmp_path, chat)) if w[0] == "self"] == []


@pytest.mark.parametrize(
    ("chat", "final", "old"),
    [(["from now on no tables please", "OK.", "hmm, no tables at all feels bare", "Fair.",
       "ok: never in the body, one small summary at the end is fine", "OK."], "summary at the end", "no tables please"),
     (["以后别用表格了", "好", "完全没表格又不好对比", "嗯", "这样吧 正文别用 结尾最多放一个", "好"], "结尾最多", "以后别用表格")],
)  # fmt: skip
def test_a_rule_given_again_after_coming_back_to_its_key_replaces_it(
    tmp_path: Path, chat: list[str], final: str, old: str
) -> None:
    text = _text(_only(_extract(tmp_path, chat), "self"))
    assert final in text and old not in text


@pytest.mark.parametrize(
    ("chat", "key", "word"),
    [(["在杭州 滨江区", "好"], "city", "杭州"),
     (["做后端的 在一家做物流的公司 叫 远帆科技", "好"], "occupation", "远帆科技"),
     (["我最近从 Sublime 换到 Zed 了", "好"], "tools", "Zed"),
     (["my stack is Django and HTMX", "OK."], "tools", "Django")],
)  # fmt: skip
def test_bare_self_statements_name_their_key(tmp_path: Path, chat: list[str], key: str, word: str) -> None:
    [obj] = [o for o in _extract(tmp_path, chat) if o.get("key") == key]
    assert word in str(obj["summary"])


@pytest.mark.parametrize(
    "chat",
    [["我是做后端的", "主要用什么技术栈？", "Go + PostgreSQL 编辑器是 GoLand", "好"],
     ["I work as a data engineer", "What tools do you use?", "dbt and Airflow, editor is Zed", "OK."]],
)  # fmt: skip
def test_the_answer_to_a_question_about_the_user_is_theirs(tmp_path: Path, chat: list[str]) -> None:
    assert ("self", "create", "tools") in _writes(_extract(tmp_path, chat))


@pytest.mark.parametrize("said", ["我叫陈思远 叫我思远就行", "I'm Theodore, call me Theo"])
def test_a_nickname_said_with_the_name_stays_in_the_name(tmp_path: Path, said: str) -> None:
    keys = [w[2] for w in _writes(_extract(tmp_path, [said, "OK."]))]
    assert "name" in keys and "nickname" not in keys


@pytest.mark.parametrize(
    ("stored", "said"),
    [("Always books an aisle seat near the front", "aisle seat as always"),
     ("用户每次都订靠窗座位", "还是老样子 靠窗座位")],
)  # fmt: skip
def test_a_value_marked_unchanged_is_a_skip(tmp_path: Path, stored: str, said: str) -> None:
    before = [{"type": "self", "category": "preference", "key": "travel", "summary": stored}]
    objs = _extract(tmp_path, [said, "OK."], before)
    assert [o["op"] for o in objs if o.get("key") == "travel"] == ["skip"]


def test_letters_then_digits_are_an_identifier() -> None:
    assert "moss2031" in salient_tokens("the password is moss2031!")
    assert "moss2031" in salient_tokens("密码还是 moss2031!")


@pytest.mark.parametrize(
    ("stored", "said"),
    [("Router password moss2031!", "router password still moss2031! btw"),
     ("路由器密码 moss2031!", "路由器密码还是 moss2031! 没改")],
)  # fmt: skip
def test_a_saved_secret_said_again_is_a_skip(tmp_path: Path, stored: str, said: str) -> None:
    before = [{"type": "saved", "saved_kind": "text_note", "title": "router", "summary": stored}]
    assert [o["op"] for o in _extract(tmp_path, [said, "OK."], before) if o["type"] == "saved"] == ["skip"]


# -- people: diets, short forms, answers about them, choices --------------------------------------------------


@pytest.mark.parametrize(
    ("chat", "name", "word"),
    [(["for the offsite: Ingrid is vegan, strictly", "Noted."], "Ingrid", "vegan"),
     (["团建吃饭 Ingrid is coeliac 要注意", "好"], "Ingrid", "coeliac")],
)  # fmt: skip
def test_a_named_persons_diet_makes_them_a_person(
    tmp_path: Path, chat: list[str], name: str, word: str
) -> None:
    objs = _extract(tmp_path, chat)
    obj = _only(objs, "relationship")
    assert obj["name"] == name and word in _text(obj)
    assert [w for w in _writes(objs) if w[0] == "self"] == []


def test_a_place_that_is_vegan_friendly_is_no_person(tmp_path: Path) -> None:
    assert _writes(_extract(tmp_path, ["Ferment is vegan-friendly, book it", "Booked."])) == []


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["oh and rolf can't do gluten, coeliac", "Noted."], "coeliac"),
     (["Rolf 吃素 以后点菜注意", "好"], "吃素")],
)  # fmt: skip
def test_a_stored_persons_diet_is_their_fact(tmp_path: Path, chat: list[str], word: str) -> None:
    assert word in _text(_only(_extract(tmp_path, chat, [_person("Rolf", "colleague")]), "relationship"))


@pytest.mark.parametrize(
    ("stored", "chat"),
    [("陈思远", ["思远以后每周三来", "好"]),
     ("Samantha Reyes", ["sam's taking over the newsletter from june", "OK."])],
)  # fmt: skip
def test_a_given_name_or_a_lowercase_short_form_finds_the_stored_person(
    tmp_path: Path, stored: str, chat: list[str]
) -> None:
    assert _only(_extract(tmp_path, chat, [_person(stored)]), "relationship")["name"] == stored


def test_a_lowercase_word_is_a_name_only_where_a_subject_stands(tmp_path: Path) -> None:
    objs = _extract(tmp_path, ["will tell her the newsletter moves to june", "OK."], [_person("William")])
    assert [o for o in objs if o["type"] == "relationship"] == []


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["Nadia got the job!!", "The one at the museum?", "yes, head curator at the Tate Modern", "Wow."], "Tate"),
     (["Nadia 拿到 offer 了 以后在上海上班", "哪家？", "对 浦东的 Lumen Labs 做产品", "不错"], "Lumen Labs")],
)  # fmt: skip
def test_the_answer_to_a_question_about_a_person_is_theirs(
    tmp_path: Path, chat: list[str], word: str
) -> None:
    assert word in _text(_only(_extract(tmp_path, chat, [_person("Nadia", "sister")]), "relationship"))


@pytest.mark.parametrize(
    "chat",
    [["Nadia moved to Leeds", "Is she with anyone?", "her boyfriend Callum eats anything", "OK."],
     ["Nadia moved to Leeds", "What did the vet say?", "Amoxil 250mg twice a day, for 7 days", "OK."]],
)  # fmt: skip
def test_an_answer_about_someone_else_or_a_course_is_not_the_persons(tmp_path: Path, chat: list[str]) -> None:
    text = _text(_only(_extract(tmp_path, chat, [_person("Nadia", "sister")]), "relationship"))
    assert "Callum" not in text and "Amoxil" not in text


@pytest.mark.parametrize(
    "chat",
    [["带外婆去吃饭 推荐个安静的", "可以试试「松鹤楼」或者「得月楼」。", "松鹤楼吧 她爱吃松鼠鳜鱼", "好"],
     ["dinner with Gran, somewhere quiet?", "Try Rosa's or The Ivy.", "Rosa's then, she loves risotto", "OK."]],
)  # fmt: skip
def test_a_taste_said_while_picking_an_offer_is_the_choices_reason(tmp_path: Path, chat: list[str]) -> None:
    name = "外婆" if "外婆" in chat[0] else "Gran"
    assert [o for o in _extract(tmp_path, chat, [_person(name, "family")]) if o["op"] != "skip"] == []


# -- saved: a corrected value, the subject before the cue, not also a conclusion ---------------------------------


def test_a_replacement_pair_reads_both_orders() -> None:
    assert _replacement_pair("不对 运费是 18 不是 15") == ("18", "15")
    assert _replacement_pair("不是 15，是 18") == ("18", "15")
    assert _replacement_pair("sorry, 18 not 15") == ("18", "15")
    assert _replacement_pair("not 15 but 18") == ("18", "15")
    assert _replacement_pair("no, it's fine") is None


@pytest.mark.parametrize(
    ("chat", "new", "old"),
    [(["记住：售价 = 成本 × 3 + 运费 15", "好", "不对 运费写错了 是 18 不是 15", "好"], "运费 18", "运费 15"),
     (["remember this: price = cost x 3 + shipping 15", "OK.", "wait, shipping is 18 not 15", "OK."],
      "shipping 18", "shipping 15")],
)  # fmt: skip
def test_a_correction_pair_fixes_the_saved_note(tmp_path: Path, chat: list[str], new: str, old: str) -> None:
    objs = _extract(tmp_path, chat, [_topic("售价" if "售价" in chat[0] else "price")])
    text = _text(_only(objs, "saved"))
    assert new in text and old not in text
    assert not [o for o in objs if o["type"] == "topic" and o["op"] != "skip" and old in _text(o)]


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["台灯定价我想了个公式 你帮我记住：售价 = 材料成本 × 3 + 包装 8", "好"], "台灯定价"),
     (["the lamp pricing, I worked out a formula, remember this: price = cost x 3", "OK."], "price")],
)  # fmt: skip
def test_the_subject_before_the_cue_leads_the_title(tmp_path: Path, chat: list[str], word: str) -> None:
    assert word in str(_only(_extract(tmp_path, chat), "saved")["title"])


def test_a_filler_before_the_cue_is_no_subject(tmp_path: Path) -> None:
    title = str(_only(_extract(tmp_path, ["还有一个 记住每月 8 号交物业费 1200", "好"]), "saved")["title"])
    assert not title.startswith("一个")


def test_one_shared_word_of_a_long_open_question_is_not_an_answer(tmp_path: Path) -> None:
    before = [_topic_q("选题助手", "要不要部署到云服务器定时跑")]
    objs = _extract(tmp_path, ["公司服务器决定换成 8 核的", "好"], before)
    assert [o for o in objs if o["type"] == "topic" and o["op"] != "skip"] == []


@pytest.mark.parametrize(
    ("chat", "name"),
    [(["rolf came by with the ladder", "Nice of him.",
       "remember this: I feed his cat on Mondays, he feeds mine on Fridays", "OK."], "Rolf Berg"),
     (["Rolf Berg 来借梯子了", "好", "帮我记住：周一我喂他的猫 周五他喂我的", "好"], "Rolf Berg")],
)  # fmt: skip
def test_a_pronoun_in_a_saved_note_is_named(tmp_path: Path, chat: list[str], name: str) -> None:
    note = _only(_extract(tmp_path, chat, [_person(name, "neighbour")]), "saved")
    assert name in str(note["detail"])


@pytest.mark.parametrize(
    ("said", "rule"), [("这样吧 正文里别用表格", "正文里别用表格"), ("好吧，以后都用中文", "以后都用中文")]
)
def test_how_the_user_lands_on_a_rule_is_not_part_of_it(said: str, rule: str) -> None:
    from savenow.objects.heuristic import _clean

    assert _clean(said) == rule


def test_values_of_different_settings_both_stand() -> None:
    assert not _same_setting_new_value("budget for ads is 500", "budget for design is 800")
    assert not _same_setting_new_value("广告预算 500", "设计预算 800")


@pytest.mark.parametrize(
    "chat",
    [["Nadia is back from holiday", "Where did she go?", "Lisbon. Brought pastel de nata", "Yum."],
     ["Nadia 回来了", "去哪玩了？", "Lisbon 带了蛋挞", "好吃"]],
)  # fmt: skip
def test_a_name_answered_after_a_passing_mention_is_no_fact(tmp_path: Path, chat: list[str]) -> None:
    assert [o for o in _extract(tmp_path, chat, [_person("Nadia", "sister")]) if o["op"] != "skip"] == []


@pytest.mark.parametrize(
    ("chat", "kept"),
    [(["from now on no tables please", "OK.", "tables, I'll think about it", "Sure.",
       "from now on send the weekly report by email", "OK."], "no tables"),
     (["以后别用表格了", "好", "表格那个我再想想", "嗯", "以后周报都发邮件", "好"], "别用表格")],
)  # fmt: skip
def test_a_rule_about_something_else_does_not_replace_a_reopened_one(
    tmp_path: Path, chat: list[str], kept: str
) -> None:
    [obj] = [o for o in _extract(tmp_path, chat) if o.get("key") == "formatting"]
    assert kept in str(obj["summary"])
