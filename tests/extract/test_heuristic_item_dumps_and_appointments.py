"""Numbered life-admin dumps echoed back item by item, and one-off appointments and orders (en + zh)."""

from __future__ import annotations

from tests.extract.support import chat, extract, saved, text_of

# --------------------------------------------------------------------------- 1: numbered items, echoed back


def test_numbered_items_echoed_back_are_notes_en() -> None:
    messages = chat(
        "u: ok here is my household stuff so you stop asking",
        "a: Go ahead, I'll confirm each one.",
        "u: 1. groceries. we order from Marlow Market on Fridays, delivery slot 18:00-19:00, never substitutions",
        "a: Marlow Market on Fridays, delivery 18:00-19:00, no substitutions.",
        "u: 2. the cat. Biscuit sees Dr Okafor at Riverside Vets, her flea treatment is every 4 weeks",
        "a: Biscuit, Dr Okafor at Riverside Vets, flea treatment every 4 weeks.",
        "u: that's it, thanks",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("marlow market" in t for t in texts)
    assert any("okafor" in t for t in texts)
    assert len(notes) == 2  # one note per item, never one note for both


def test_numbered_items_echoed_back_are_notes_zh() -> None:
    messages = chat(
        "u: 我把家里几件事一次跟你说清楚",
        "a: 好，你说，我逐条复述。",
        "u: 1. 体检。每年 5 月在仁和医院做，找王医生，要空腹",
        "a: 每年 5 月仁和医院体检，找王医生，需要空腹。",
        "u: 2. 物业。物业费每季度交一次，找前台小周，电话 0571-8802",
        "a: 物业费每季度交，前台小周，电话 0571-8802。",
        "u: 就这些",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("仁和医院" in t for t in texts)
    assert any("0571-8802" in t for t in texts)


def test_a_plain_answer_to_an_unnumbered_message_is_not_an_echo_en() -> None:
    messages = chat(
        "u: groceries come from Marlow Market on Fridays, delivery slot 18:00-19:00",
        "a: Marlow Market on Fridays, delivery 18:00-19:00 — sounds like a good routine.",
        "u: lol yes",
    )
    assert saved(extract(messages)) == []


def test_what_follows_an_item_joins_that_item_en() -> None:
    messages = chat(
        "u: 1. passport. mine expires 2029-06-12, renew 6 months before",
        "a: Passport expires 2029-06-12; renewal reminder 6 months before. Who should I remind, you or your assistant?",
        "u: me, and cc Priya Nair at priya.n@example.org",
        "a: Got it — the reminder goes to you with Priya Nair (priya.n@example.org) in cc.",
        "u: 2. gym. Ironworks on Elm St, mon and wed 07:00, never book meetings before 09:00 on those days",
        "a: Ironworks on Elm St, Mon/Wed 07:00 — no meetings before 09:00 those days.",
    )
    notes = saved(extract(messages))
    passport = [n for n in notes if "2029-06-12" in text_of(n)]
    assert len(passport) == 1
    assert not any("priya" in text_of(n) and "2029-06-12" not in text_of(n) for n in notes)
    assert any("ironworks" in text_of(n) for n in notes)


# --------------------------------------------------------------------------- 2: one-off appointments and orders


def test_acknowledged_appointment_on_a_near_date_is_not_a_note_en() -> None:
    messages = chat(
        "u: the dentist moved to thursday 3pm, can you put it in",
        "a: Added: dentist Thursday 3 Dec, 15:00.",
        "u: great",
        "u: and order the coffee for pickup tomorrow",
        "a: Done: oat latte at Ferro, pickup tomorrow 08:15. Order #F-2291.",
    )
    notes = saved(extract(messages))
    assert not any("dentist" in text_of(n) or "f-2291" in text_of(n) for n in notes)


def test_acknowledged_appointment_on_a_near_date_is_not_a_note_zh() -> None:
    messages = chat(
        "u: 这周四下午三点约了牙医，帮我记一下",
        "a: 记下了：这周四 15:00 看牙医。",
        "u: 再帮我查一下快递，订单号 SF-88213",
        "a: 好的：订单号 SF-88213 的快递明天到。",
    )
    notes = saved(extract(messages))
    assert not any("牙医" in text_of(n) or "sf-88213" in text_of(n) for n in notes)


def test_a_weekly_slot_that_starts_next_week_is_not_a_one_off_zh() -> None:
    messages = chat(
        "u: 游泳课定了，从下周开始每周二晚上 19:00 到 20:00，在市体育馆",
        "a: 好：游泳课每周二 19:00–20:00，市体育馆，下周二开始。",
        "u: 对",
    )
    notes = saved(extract(messages))
    assert any("19:00" in text_of(n) for n in notes)
