"""Interviews (issue 12, which facts): the assistant asks, the user answers tersely with values; the
answers are kept without any "remember", grouped by the subject asked about, and what the chat
rules out (a withdrawn idea, a value corrected later, an offer turned down, chit-chat) stays out."""

from __future__ import annotations

import pytest

from savenow.extract.heuristic import signals
from savenow.extract.heuristic.interviews import (
    _corrected_later,
    _kept_answer,
    _repriced_later,
    _taken_back_next,
    asked_subject,
    interview_subjects,
)
from savenow.extract.heuristic.statements import statements
from tests.extract.support import chat, extract, saved, text_of


def _subjects(messages):
    with signals.chat_memo():
        return interview_subjects(messages, statements(messages))


def test_terse_answers_without_handles_are_one_note_en() -> None:
    messages = chat(
        "u: saw the physio today",
        "a: Any changes to the plan?",
        "u: new exercises",
        "a: Which ones, and how many reps?",
        "u: wall sits 3x30s, step-downs 3x10",
        "a: Got it. Any restrictions?",
        "u: no running until at least jan 15",
        "a: Noted. Next appointment?",
        "u: tuesdays 17:30 from now on, weekly",
        "a: Weekly Tuesdays 17:30. Anything about pain?",
        "u: ice 15 min after exercises if it swells",
        "a: Okay.",
    )
    notes = [n for n in saved(extract(messages)) if "wall sits" in text_of(n)]
    assert len(notes) == 1 and "17:30" in text_of(notes[0])


def test_answers_with_handles_to_new_questions_are_notes_of_their_own_zh() -> None:
    messages = chat(
        "u: 新买的那台 VPS 装好了 帮我整理下",
        "a: 好的，先说基本信息：主机名、IP？",
        "u: 主机名 yunque-sg1，IP 103.77.214.9，Debian 12",
        "a: 收到。SSH 怎么登？",
        "u: ssh 端口改成 2287 了，只允许 key 登录，用户 deploy",
        "a: 好的。上面跑什么服务？",
        "u: 就一个 umami 统计，docker compose 跑的，目录 /opt/umami",
        "a: 好的，这些我都记下了。",
    )
    subjects = _subjects(messages)
    assert len(subjects) == 3
    texts = [" ".join(s.text for e in subject for s in e.bullets) for subject in subjects]
    assert "yunque-sg1" in texts[0] and "2287" in texts[1] and "/opt/umami" in texts[2]


def test_a_short_attribute_question_stays_with_its_subject_zh() -> None:
    messages = chat(
        "u: 机票订好了 帮我记下",
        "a: 好的！航班号和时间？",
        "u: 去程 MU 729，浦东 08:35 飞关西",
        "a: 收到：去程 MU 729 08:35。订单号呢？",
        "u: PNR 是 K7QW2M",
        "a: 好的，K7QW2M。酒店定了吗？",
        "u: 定了 Hotel Kanra Kyoto, booking.com 确认号 4418 207 935",
        "a: 好的～",
    )
    subjects = _subjects(messages)
    assert len(subjects) == 2
    first = " ".join(s.text for e in subjects[0] for s in e.bullets)
    assert "MU 729" in first and "K7QW2M" in first


def test_a_question_after_a_restatement_asks_about_it_en() -> None:
    messages = chat(
        "u: new supplier for tyres: Northway Cycle Supply, account no NW-55810",
        "a: Noted: Northway Cycle Supply, account NW-55810. Who's your rep?",
        "u: Gemma, orders by email to orders@northwaycycle.com, cutoff thursday noon",
        "a: Got it: Gemma, orders@northwaycycle.com, Thursday 12:00 cutoff.",
    )
    subjects = _subjects(messages)
    assert len(subjects) == 1 and len(subjects[0]) == 2


def test_the_assistants_restatement_is_the_bullet_zh() -> None:
    messages = chat(
        "u: 机票订好了 帮我记下",
        "a: 好的！航班号和时间？",
        "u: 去程 MU 729，浦东 08:35 飞关西",
        "u: 回程 MU 730 关西 14:10 回浦东",
        "a: 收到：去 MU 729 PVG 08:35 → KIX，回 MU 730 KIX 14:10 → PVG。订单号呢？",
        "u: PNR 是 K7QW2M",
        "a: 好的～",
    )
    (subject,) = _subjects(messages)
    assert [s.role for s in subject[0].bullets] == ["assistant"]


def test_a_value_corrected_later_is_not_kept_zh() -> None:
    messages = chat(
        "u: 帮我记一下 钢琴课换老师了",
        "a: 好的，新老师叫什么？",
        "u: 新老师姓葛，葛老师，在星河琴行三楼",
        "a: 明白了。时间呢？",
        "u: 原来是周三晚上七点，现在说改成周四晚上七点",
        "a: 好的。",
        "u: 哦不对 葛老师刚发消息 周四她有别的学生 改成周六上午十点",
        "a: 那以周六 10:00 为准。",
    )
    answer = next(s for s in statements(messages) if "周四晚上" in s.text)
    assert _corrected_later(messages, 5, answer)  # names 周四 again and gives 周六
    asked = chat(*[m.role[0] + ": " + (m.text or "") for m in messages[:6]], "u: 等等 周四晚上几点下课？")
    assert not _corrected_later(asked, 5, next(s for s in statements(asked) if "周四晚上" in s.text))
    again = chat(*[m.role[0] + ": " + (m.text or "") for m in messages[:6]], "u: 等等 周四晚上七点 没错")
    assert not _corrected_later(again, 5, next(s for s in statements(again) if "周四晚上" in s.text))


def test_a_withdrawn_idea_and_a_declined_answer_are_not_kept_en_zh() -> None:
    withdrawn = chat(
        "u: 元旦想带爸妈去厦门 帮我规划下",
        "a: 好呀！几天？几个人？",
        "u: 4 个人 1月1号到1月4号",
        "a: 好的，1/1–1/4，四人。住哪边有偏好吗？",
        "u: 本来想住鼓浪屿上的民宿",
        "a: 好的。",
    )
    idea = next(s for s in statements(withdrawn) if "民宿" in s.text)
    assert not _kept_answer(idea)
    assert _kept_answer(next(s for s in statements(withdrawn) if "1月4号" in s.text))
    declined = chat(
        "u: new accountant this year",
        "a: Got it. What's her name?",
        "u: Priya Nandakumar at Ledgerwell",
        "a: Noted. Her email?",
        "u: priya@ledgerwell.co.uk",
        "a: Noted: priya@ledgerwell.co.uk. And the gpg error from before?",
        "u: gpg key 5F3A91C2 expired, I renewed it. no need to note that",
        "a: OK.",
    )
    bullets = [s.text for subject in _subjects(declined) for e in subject for s in e.bullets]
    assert bullets and not any("gpg" in b for b in bullets)


def test_chit_chat_and_diagnostic_questions_are_no_interview_zh_en() -> None:
    chitchat = chat(
        "u: 哈哈 今天好无聊",
        "a: 好呀，今天过得怎么样？",
        "u: 还行 刚下楼取了个快递 是双鞋",
        "a: 不错！什么款？",
        "u: 就普通跑鞋 打折买的 199",
        "a: 挺划算的。",
    )
    assert _subjects(chitchat) == []
    diagnosis = chat(
        "u: prometheus disk is filling up on mon-2",
        "a: How full is it? `df -h /var/lib/prometheus` on mon-2?",
        "u: 91%",
        "a: That is the TSDB growing. Which retention is set now, and what does the unit file say about it?",
        "u: 15d, set in the systemd unit",
        "a: OK.",
    )
    assert _subjects(diagnosis) == []


def test_an_offer_is_no_question_for_facts_zh_en() -> None:
    from savenow.extract.heuristic.interviews import _asks_for_facts

    assert _asks_for_facts("好的，每天至少 30 分钟。要不要我每天晚上提醒？") == ""
    assert _asks_for_facts("Got it. Do you want me to draft a sign for the door?") == ""
    assert _asks_for_facts("收到。SSH 怎么登？") == "SSH 怎么登？"
    assert _asks_for_facts("Noted. Next appointment?") == "Next appointment?"


def test_handles_are_things_with_one_name() -> None:
    from savenow.extract.heuristic.interviews import _handles

    assert _handles("PNR 是 K7QW2M") == {"K7QW2M"}
    assert _handles("目录 /opt/umami") == {"/opt/umami"}
    assert _handles("priya@ledgerwell.co.uk") == {"priya@ledgerwell.co.uk"}
    assert _handles("documents by 10 January 2027") == frozenset()
    assert _handles("tuesdays 17:30, 1/8 到 1/14") == frozenset()


def test_a_yes_with_its_detail_stays_with_the_subject_zh_en() -> None:
    zh = chat(
        "u: 帮我记一下论文的编译设置",
        "a: 好的！编译用哪个引擎？",
        "u: xelatex，overleaf 上编译超时 所以本地编",
        "a: 明白，本地 XeLaTeX。用 latexmk 吗？",
        "u: 嗯 latexmk -xelatex main.tex",
        "a: 好的～",
    )
    assert len(_subjects(zh)) == 1
    en = chat(
        "u: please note my backup setup",
        "a: Sure. Which tool do you use?",
        "u: restic, to the NAS over sftp",
        "a: Got it, restic over sftp. Is it scheduled?",
        "u: yes, restic-backup.timer daily at 02:00",
        "a: Noted.",
    )
    assert len(_subjects(en)) == 1


def test_an_idea_taken_back_in_the_next_answer_is_no_note_en() -> None:
    messages = chat(
        "u: call with the agent went well",
        "a: Great! What did she say about the draft?",
        "u: she wants the full draft by march 3",
        "a: March 3 for the full draft. Any format requirements?",
        "u: docx, 12pt, double spaced",
        "a: Got it: docx, 12pt, double spaced. Title ideas?",
        "u: I was thinking Glass Harbour",
        "a: Glass Harbour is strong. Want to go with it?",
        "u: hmm actually no. she said the publisher decides the title",
        "a: Makes sense.",
    )
    bullets = [s.text for subject in _subjects(messages) for e in subject for s in e.bullets]
    assert any("March 3" in b for b in bullets)
    assert not any("Glass Harbour" in b or "actually no" in b for b in bullets)


@pytest.mark.parametrize(
    ("reply", "taken_back"),
    [("算了 还是等合伙人回来再定", True), ("还是不要了", True), ("嗯 就这个", False), ("对 就叫这个", False)],
)
def test_a_take_back_opens_the_next_answer_zh(reply: str, taken_back: bool) -> None:
    messages = chat("a: 山茶小馆挺好听的。就定这个？", f"u: {reply}")
    assert _taken_back_next(messages, 0) is taken_back


def test_a_price_given_again_with_another_number_replaces_the_first() -> None:
    messages = chat("u: 我先报了 US$90/hour", "a: 好的。", "u: 他们加了需求 我把 rate 提到 US$110/hour 了")
    first = statements(messages)[0]
    assert _repriced_later(messages, 1, first)
    other = chat("u: 先付 30% deposit", "a: 好的。", "u: 尾款 70% 交付时付")
    assert not _repriced_later(other, 1, statements(other)[0])  # two shares of one sum


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Sounds good. New VM name?", "New VM name"),
        ("Which address is that?", "address"),
        ("订单号呢？", "订单号"),
        ("明白了。时间呢？", "时间"),
        ("And it'll listen on the default 6432?", ""),  # a guess of its own: the answer may turn it down
        ("Who owns each?", ""),
        ("Want her contact saved?", ""),  # an offer
        ("What are they called?", ""),
        ("How much?", ""),
        ("要不要我每天晚上提醒？", ""),
    ],
)
def test_what_a_short_question_asks_about(question: str, subject: str) -> None:
    assert asked_subject(question) == subject


def test_a_bare_answer_says_what_it_answers_en_zh() -> None:
    english = chat(
        "u: moving the queue off the db box",
        "a: Sounds good. New VM name?",
        "u: mq-7.harbor.internal",
        "a: Got it. Port?",
        "u: 5673",
        "a: Noted.",
    )
    bullets = [s.bullet for subject in _subjects(english) for e in subject for s in e.bullets]
    assert "New VM name: mq-7.harbor.internal" in bullets
    chinese = chat(
        "u: 机票订好了 帮我记下",
        "a: 好的！航班号和时间？",
        "u: 去程 CA 921，首都 09:10 飞成田",
        "a: 收到：去程 CA 921 09:10。订单号呢？",
        "u: PNR 是 Q8ZT4L",
        "a: 好的，Q8ZT4L。",
    )
    bullets = [s.bullet for subject in _subjects(chinese) for e in subject for s in e.bullets]
    assert any(b.startswith("订单号：") or "Q8ZT4L" in b for b in bullets)
