"""Follow-up questions: the assistant's acknowledgement goes on to ask about the fact ("价格多少？",
"Who picks her up?"), the user answers, the assistant acknowledges the answer — the answer is a
detail of the same subject, one note. A question asking for one more item ("Any new exercises?",
"还有别的吗？") starts another subject."""

from __future__ import annotations

from tests.extract.support import chat, extract, saved, text_of


def test_the_answer_to_a_follow_up_question_joins_the_note_zh() -> None:
    messages = chat(
        "u: 帮我记一下菜市场那家豆腐店",
        "a: 好的，你说。",
        "u: 豆腐找老陈，陈记豆坊，电话 13811112222",
        "a: 好的：豆腐供应商老陈（陈记豆坊），电话 13811112222。一板多少钱？",
        "u: 一板 38 元，每周一、周四送",
        "a: 明白了：一板 38 元，每周一、周四送货。",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "13811112222" in text_of(notes[0]) and "38" in text_of(notes[0])


def test_the_answer_to_a_follow_up_question_joins_the_note_en() -> None:
    messages = chat(
        "u: new piano teacher for Mia",
        "a: Nice! Tell me the details.",
        "u: Mrs Novak, lessons every Tuesday 17:00 at her flat on Elm Street",
        "a: Got it: Mia's piano with Mrs Novak, Tuesdays 17:00, Elm Street. How much per lesson?",
        "u: 30 pounds, cash at the end of each month",
        "a: Noted: 30 pounds per lesson, paid in cash at the end of each month.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "17:00" in text_of(notes[0]) and "30 pounds" in text_of(notes[0])


def test_a_question_for_one_more_item_starts_another_note_en() -> None:
    messages = chat(
        "u: saw the physio about my knee today",
        "a: How did it go?",
        "u: long runs capped at 10 km for now",
        "a: Got it: long run max 10 km until further notice. Any new exercises?",
        "u: wall sits, 3x45 seconds, every evening",
        "a: Noted: wall sits 3×45 s every evening.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 2


def test_a_question_for_one_more_item_starts_another_note_zh() -> None:
    messages = chat(
        "u: 今天去复查了膝盖",
        "a: 医生怎么说？",
        "u: 跑步单次不超过 5 公里",
        "a: 记下了：跑步单次不超过 5 公里。还有别的要注意的吗？",
        "u: 每天晚上靠墙静蹲 3 组，每组 45 秒",
        "a: 记下了：每天晚上靠墙静蹲 3 组 × 45 秒。",
    )
    notes = saved(extract(messages))
    assert len(notes) == 2


def test_two_acknowledgement_words_before_the_colon_still_restate_zh() -> None:
    messages = chat(
        "u: 我们组这个月是 早-早-晚-晚-休 这样轮，每 5 天一循环",
        "a: 好的，明白了：这个月按「早、早、晚、晚、休」5 天一循环。",
        "u: 对",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "循环" in text_of(notes[0])


def test_two_acknowledgement_words_before_the_colon_still_restate_en() -> None:
    from savenow.extract.heuristic.signals import LEX

    assert LEX.EXPLICIT_ACK.search("OK, noted: the gate code is 4471.")
    assert LEX.EXPLICIT_ACK.search("好的，明白了：周三 15:40 放学。")
    assert not LEX.EXPLICIT_ACK.search("OK, so the gate code: 4471.")


def test_an_option_picked_by_number_a_few_messages_later_is_the_decision_zh() -> None:
    messages = chat(
        "u: 备份 timer 为啥按 UTC 跑",
        "a: 两种改法：\n1. 把服务器时区改成 Asia/Shanghai（不推荐）\n2. 在 OnCalendar 里显式写时区：`OnCalendar=*-*-* 03:00:00 Asia/Shanghai`\n推荐 2。",
        "u: systemd 版本够吗",
        "a: Debian 12 自带 252，够用。",
        "u: 252",
        "u: 那就改 2",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "asia/shanghai" in text_of(notes[0]) and "oncalendar" in text_of(notes[0])


def test_nice_and_great_open_an_acknowledgement_en() -> None:
    from savenow.extract.heuristic.chat import ACK_START

    assert ACK_START.search("Nice. So releases are: tag v* and publish.yml pushes to PyPI.")
    assert ACK_START.search("Great, the NAS backs up at 03:00.")
    assert not ACK_START.search("Nicely done on the migration, what's next?")


def test_nice_and_great_open_an_acknowledgement_zh() -> None:
    from savenow.extract.heuristic.chat import ACK_START

    # The Chinese acknowledgements were already there; "Nice" in a Chinese chat counts the same.
    assert ACK_START.search("好的，发布流程：打 tag v* 后 publish.yml 推到 PyPI。")
    assert ACK_START.search("Nice，那备份每天 03:00 跑。")
