"""The assistant's own task is not the user's fact: "以后你要请假我提醒你" / "I'll remind you before
each one" is a promise of a service, never a note (and never the bullet of the rule it follows).
An acknowledgement's follow-up question does not dilute its echo of the user's words."""

from __future__ import annotations

from savenow.extract.heuristic.signals import LEX
from tests.extract.support import chat, extract, saved, text_of


def test_an_assistant_promise_is_no_note_zh() -> None:
    messages = chat(
        "u: 班主任说了，请假一律私信她，而且要早上 7:30 之前发",
        "a: 明白了，班主任的规矩是：请假私信、早上 7:30 前发。这个我记下来，以后你要请假我提醒你。",
        "u: 嗯",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "7:30" in text_of(notes[0]) and "提醒你" not in text_of(notes[0])


def test_an_assistant_promise_is_no_note_en() -> None:
    assert LEX.PROMISE.search("Sure, I'll remind you the evening before.")
    assert LEX.PROMISE.search("到时候提醒你带证件。")
    assert not LEX.PROMISE.search("You asked me to remind you: the gate code is 4471.")
    messages = chat(
        "u: the bins go out every Tuesday night, recycling on odd weeks",
        "a: Got it: bins out every Tuesday night, recycling on odd weeks. I'll remind you on Tuesdays.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "remind" not in text_of(notes[0])


def test_a_follow_up_question_does_not_dilute_the_echo_zh() -> None:
    from savenow.extract.heuristic.chat import echoes_user, read_chat

    messages = chat(
        "u: 我们家垃圾每周二晚上倒，可回收的单周倒",
        "a: 好的，每周二晚上倒垃圾，可回收的单周倒。你们小区一般是几点钟来收垃圾呀，物业那边有没有规定固定的投放时间段，还是随时都可以？",
    )
    assert echoes_user(read_chat(messages), 1)


def test_a_request_to_note_what_follows_is_no_note_zh() -> None:
    messages = chat(
        "u: 我妈今天去看了牙，帮我记一下医生说的",
        "a: 好的，你说。",
        "u: 左下那颗要做根管，分三次，每次隔一周，总共 2400 元",
        "a: 记下了：左下牙根管治疗，分三次、每次隔一周，共 2400 元。",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "2400" in text_of(notes[0])


def test_a_request_to_note_what_follows_is_no_note_en() -> None:
    messages = chat(
        "u: also please note down the clinic numbers, I always have to dig through the group chat",
        "u: front desk 0161 496 0321, pharmacy 0161 496 0388",
        "a: Noted: front desk 0161 496 0321, pharmacy 0161 496 0388.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "0161 496 0321" in text_of(notes[0])
    assert "dig through" not in text_of(notes[0])


def test_a_rule_the_user_asks_to_note_is_still_a_note_zh() -> None:
    messages = chat(
        "u: 以后回复别用 emoji，帮我记一下",
        "a: 记下了：以后回复不用 emoji。",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "emoji" in text_of(notes[0])


def test_keep_that_after_a_value_keeps_the_value_en() -> None:
    messages = chat(
        "u: found it. BA88123456. keep that",
        "a: Executive Club number: BA88123456.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "ba88123456" in text_of(notes[0])


def test_keep_that_after_a_value_keeps_the_value_zh() -> None:
    messages = chat(
        "u: 找到了，会员号 CA7730021945。记住这个",
        "a: 国航知音卡：CA7730021945。",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "ca7730021945" in text_of(notes[0])


def test_i_never_remember_it_is_no_note_marker_en() -> None:
    assert not LEX.NOTE.search("can you tell me my loyalty number, I never remember it")
    assert LEX.NOTE.search("remember this: the spare key is under the blue pot")
    messages = chat(
        "u: can you tell me my loyalty number, I never remember it",
        "a: I don't have it saved anywhere — can you find it in the app?",
    )
    assert saved(extract(messages)) == []
