"""The offline extractor keeps the value that counts, which is often in a later message: a correction,
the user's answer to the assistant's question, the decision at the end of a topic's thread. The
phrasings are made up for the rule (people, projects and numbers of no evaluation case)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_offline_rules import _extract, _text, _topic, _writes


@pytest.mark.parametrize(
    ("chat", "key", "new", "old"),
    [(["please don't message me after 11pm", "OK.", "hm make that 10pm, I sleep earlier now", "Noted."],
      "quiet_hours", "10pm", "11pm"),
     (["以后别在晚上 11 点以后给我发消息", "好的。", "算了，改成 10 点吧", "好。"], "quiet_hours", "10 点", "11 点")],
)  # fmt: skip
def test_a_correction_without_the_key_word_replaces_the_value_just_given(
    tmp_path: Path, chat: list[str], key: str, new: str, old: str
) -> None:
    [obj] = _extract(tmp_path, chat)
    assert obj["key"] == key and new in obj["summary"] and old not in obj["summary"]


@pytest.mark.parametrize(
    ("chat", "value", "subject"),
    [(["remind me before rent is due from now on", "Sure. How many days before?", "3 days", "Got it."], "3 days", "rent"),
     (["以后交房租前提醒我一下", "好的，提前几天提醒？", "提前三天吧", "好"], "三天", "房租")],
)  # fmt: skip
def test_the_answer_to_the_assistants_question_completes_the_rule(
    tmp_path: Path, chat: list[str], value: str, subject: str
) -> None:
    [obj] = _extract(tmp_path, chat)
    assert obj["key"] == "reminders" and value in obj["summary"] and subject in obj["summary"]


@pytest.mark.parametrize(
    "chat",
    [["remind me 15 minutes ahead from now on", "OK.", "actually 10 minutes is enough", "OK."],
     ["以后提前 15 分钟提醒我", "好的", "算了，还是当天早上 8 点提醒吧", "好"]],
)  # fmt: skip
def test_a_corrected_reminder_rule_keeps_its_time(tmp_path: Path, chat: list[str]) -> None:
    [obj] = _extract(tmp_path, chat)
    assert obj["key"] == "reminders" and "15" not in obj["summary"]


@pytest.mark.parametrize(
    "chat",
    [["I'm trying no sugar this month, just to see", "Good luck!"],
     ["open question is whether to do a night shift or hire", "Worth costing both."],
     ["这个月暂时不喝咖啡，试试看", "加油"]],
)  # fmt: skip
def test_a_trial_or_an_open_question_is_no_preference(tmp_path: Path, chat: list[str]) -> None:
    assert [w for w in _writes(_extract(tmp_path, chat)) if w[0] == "self"] == []


@pytest.mark.parametrize(
    ("chat", "word"),
    [(["btw my new job at Norrland Labs starts Monday", "Congrats!"], "Norrland Labs"),
     (["跟你说下，我下周一去青禾科技入职了，做后端", "恭喜！"], "青禾科技")],
)  # fmt: skip
def test_a_new_job_said_in_passing_is_the_occupation(tmp_path: Path, chat: list[str], word: str) -> None:
    [obj] = _extract(tmp_path, chat)
    assert (obj["key"], obj["op"]) == ("occupation", "create") and word in obj["summary"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [("我自己还是老样子 不吃辣", "用户不吃辣"), ("still vegetarian, as usual", "vegetarian")],
)
def test_a_stored_preference_said_again_is_a_skip(tmp_path: Path, said: str, stored: str) -> None:
    before = [{"type": "self", "category": "preference", "key": "diet", "summary": stored}]
    objects = _extract(tmp_path, [said, "OK."], before)
    assert _writes(objects) == [] and [o["op"] for o in objects] == ["skip"]


@pytest.mark.parametrize(
    ("topic", "chat", "kept", "out"),
    [("Falcon app", ["Falcon app: we decided to go with Postgres 16", "Good call. Hosting?", "Hetzner, the CX32 box",
                     "Nice, I'll note it.", "and the API stays on REST, final call", "OK.",
                     "the kids loved the cake lol", "Ha!", "shipping the two parcels tomorrow", "OK."],
      ["Postgres 16", "CX32", "REST"], ["cake", "parcels"]),
     ("青柚小程序", ["青柚小程序那边定了，用 uni-app", "好的，后端呢？", "后端用 Go，部署在腾讯云", "明白。",
                   "另外数据库最终选了 PostgreSQL", "好。", "还有两单，明天寄，顺丰到付", "好"],
      ["uni-app", "Go", "PostgreSQL"], ["顺丰", "两单"])],
)  # fmt: skip
def test_a_topics_thread_keeps_its_decisions_and_leaves_chatter_and_errands_out(
    tmp_path: Path, topic: str, chat: list[str], kept: list[str], out: list[str]
) -> None:
    [obj] = [o for o in _extract(tmp_path, chat, [_topic(topic)]) if o["type"] == "topic"]
    text = _text(obj)
    assert all(k in text for k in kept) and not any(o in text for o in out)


@pytest.mark.parametrize(
    ("chat", "title_word", "summary_word"),
    [(["we play squash every Thursday at the Eastgate club", "Nice. Same court each time?", "court 4, booked until March",
       "Want me to note that?", "remember this arrangement", "Saved."], "squash", "court 4"),
     (["跟朋友约好了 以后每周四晚上打壁球", "不错，固定场地吗？", "4 号场，包到明年 3 月", "要我记下来吗？",
       "记住这个安排", "好的"], "壁球", "4 号场")],
)  # fmt: skip
def test_remember_this_keeps_the_thing_not_an_empty_label(
    tmp_path: Path, chat: list[str], title_word: str, summary_word: str
) -> None:
    [obj] = [o for o in _extract(tmp_path, chat) if o["type"] == "saved"]
    assert title_word in obj["title"] and summary_word in obj["summary"]


def test_yes_remember_that_keeps_what_the_assistant_proposed(tmp_path: Path) -> None:
    chat = ["can you format the weekly report", "Sure. Should I always put the summary table first?",
            "yeah always, remember that", "OK."]  # fmt: skip
    [obj] = [o for o in _extract(tmp_path, chat) if o["type"] == "saved"]
    assert "summary table first" in obj["summary"] and "yeah" not in obj["title"]


def test_a_title_never_ends_in_half_a_link(tmp_path: Path) -> None:
    chat = ["帮我存一下 staging 看板的地址 https://grafana.example.net/d/abc123/staging-overview", "好的"]
    [obj] = _extract(tmp_path, chat)
    assert "https://" not in obj["title"] and "看板" in obj["title"]


def test_clock_times_are_the_value_of_work_and_quiet_hours(tmp_path: Path) -> None:
    objects = _extract(tmp_path, ["I start at 5am, so anything after 9pm, don't bother me", "Got it."])
    by_key = {o["key"]: o["summary"] for o in objects}
    assert "5am" in by_key["work_hours"] and "9pm" in by_key["quiet_hours"]


def test_a_person_named_with_where_they_work_is_a_new_contact(tmp_path: Path) -> None:
    chat = [
        "the paper comes from Imogen at Quillworth, she only takes orders by phone, never email",
        "Noted.",
    ]
    [obj] = _extract(tmp_path, chat)
    assert (obj["type"], obj["op"], obj["name"]) == ("relationship", "create", "Imogen")


@pytest.mark.parametrize(
    ("name", "chat", "new", "old"),
    [("Nina", ["Nina comes every Tuesday from now on", "OK.", "actually Thursday, she changed it", "Noted."],
      "Thursday", "Tuesday"),
     ("王阿姨", ["王阿姨以后每周三来", "好的", "不对，是周四", "好"], "周四", "周三")],
)  # fmt: skip
def test_a_correction_right_after_a_persons_fact_replaces_its_value(
    tmp_path: Path, name: str, chat: list[str], new: str, old: str
) -> None:
    [obj] = _extract(
        tmp_path, chat, [{"type": "relationship", "name": name, "relation": "cleaner", "summary": "s"}]
    )
    facts = "\n".join(obj["facts"])
    assert new in facts and old not in facts


@pytest.mark.parametrize(
    "said", ["I never know which train to take to the airport", "我总是搞不清该坐哪趟高铁"]
)
def test_not_knowing_is_no_preference(tmp_path: Path, said: str) -> None:
    assert _writes(_extract(tmp_path, [said, "Take the express."])) == []


@pytest.mark.parametrize("said", ["today please keep it short, I'm in a rush", "今天回复短一点，我在忙"])
def test_a_style_for_today_is_no_rule(tmp_path: Path, said: str) -> None:
    assert _writes(_extract(tmp_path, [said, "OK."])) == []
