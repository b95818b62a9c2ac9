"""A user's correction the assistant admits, and "the rest as always" that is no sign the new rule
was saved before (en + zh)."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

# --------------------------------------------------------------------------- a correction the assistant admits


def test_correction_the_assistant_admits_is_a_fact_en() -> None:
    messages = chat(
        "u: when is the boiler due for its next check?",
        "a: Boilers usually get checked every 6 months, so it is overdue.",
        "u: no, the installer said ours is a condensing unit, every 24 months is fine",
        "a: Sorry, my mistake. A condensing unit checked every 24 months: the next one is due next spring.",
        "u: ok good",
        "a: 👍",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("24 months" in t for t in texts)
    assert not any(t.startswith("no,") for t in texts)


def test_correction_the_assistant_admits_is_a_fact_zh() -> None:
    messages = chat(
        "u: 净水器滤芯多久换一次来着",
        "a: 一般 3 个月换一次。",
        "u: 不对, 售后说我们这款 RO 膜 24 个月换一次, 前置滤芯 6 个月",
        "a: 抱歉，刚才说错了。RO 膜 24 个月、前置滤芯 6 个月各换一次。",
        "u: 好",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("24 个月" in t for t in texts)


def test_a_correction_the_assistant_does_not_admit_is_no_fact() -> None:
    messages = chat(
        "u: 净水器滤芯多久换一次来着",
        "a: 一般 3 个月换一次。",
        "u: 不对吧, 好像是 6 个月",
        "a: 要看型号，说明书上写的为准。",
        "u: 好",
    )
    assert not any("6 个月" in text_of(n) for n in saved(extract(messages)))


# --------------------------------------------------------------------------- "the rest as always"

ROUTING = [MemorySection(title="Alerts", bullets=["All home alerts go to the family group."], time=None)]
ROUTING_ZH = [MemorySection(title="家务 topic", bullets=["家里的提醒统一发到家务 topic。"], time=None)]


def test_the_rest_as_always_does_not_make_a_new_rule_a_skip_zh() -> None:
    messages = chat(
        "u: 以后车相关的提醒别发家务 topic 了, 直接私聊发我",
        "a: 好：车相关的提醒以后都私聊发你，不再发家务 topic。其他家里的提醒还是照旧发家务 topic？",
        "u: 对 其他照旧",
    )
    notes = [n for n in extract(messages, ROUTING_ZH) if "私聊" in text_of(n)]
    assert notes and notes[0].action != "skip"


def test_the_rest_as_always_does_not_make_a_new_rule_a_skip_en() -> None:
    messages = chat(
        "u: from now on car reminders should go to my DMs, not the family group",
        "a: Noted: car reminders go to your DMs from now on. Everything else as always?",
        "u: yes, everything else as always",
    )
    notes = [n for n in extract(messages, ROUTING) if "dms" in text_of(n)]
    assert notes and notes[0].action != "skip"


def test_as_always_about_the_fact_itself_is_still_a_skip() -> None:
    messages = chat(
        "u: all home alerts go to the family group, as always",
        "a: Noted: all home alerts go to the family group, same as always.",
    )
    entries = extract(messages, ROUTING)
    assert not saved(entries) or all("family group" not in text_of(n) for n in saved(entries))
