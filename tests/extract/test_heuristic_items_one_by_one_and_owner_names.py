"""Numbered items sent one message at a time and answered with a question or a bare "Noted.";
owner notes keep the name; rules pointing at the proposal take its identifier (en + zh)."""

from __future__ import annotations

from tests.extract.support import chat, extract, saved, text_of

# --------------------------------------------------------------------------- numbered items, one per message


def test_numbered_items_sent_one_by_one_are_notes_en() -> None:
    messages = chat(
        "u: I'll send the family logistics as a numbered list",
        "a: Sure, go ahead.",
        "u: 1. piano. Lena has lessons with Mrs Varga on Tuesdays 16:00, fee £25 paid monthly",
        "a: Got it. Should I remind you the day before?",
        "u: no need",
        "u: 2. dentist. the whole family goes to Dr Amin at Parkside Dental, checkups every 6 months",
        "a: Noted.",
        "u: 3. recycling is minor, don't bother: blue bin on Mondays",
        "a: OK.",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("varga" in t and "16:00" in t for t in texts)
    assert any("parkside dental" in t for t in texts)
    assert len(notes) == 2  # one note per item; the minor item is dropped
    assert not any("blue bin" in t for t in texts)


def test_numbered_items_sent_one_by_one_are_notes_zh() -> None:
    messages = chat(
        "u: 家里几件事，我按编号一条条发",
        "a: 好的，你发吧。",
        "u: 1. 保姆。周阿姨每周二、周五 9:00 到 12:00 来，工资每月 15 号转账",
        "a: 需要我每月 14 号提醒你转账吗？",
        "u: 要",
        "u: 2. 车险。车险在平安，每年 3 月 20 日到期，联系人陈经理",
        "a: 收到。",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("周阿姨" in t and "9:00" in t for t in texts)
    assert any("平安" in t and "3 月 20 日" in t for t in texts)


def test_a_single_numbered_message_is_not_a_dump_en() -> None:
    messages = chat(
        "u: 1. lol the coffee machine broke again",
        "a: Oh no! Hope it gets fixed soon.",
        "u: yeah whatever",
    )
    assert saved(extract(messages)) == []


# --------------------------------------------------------------------------- owner notes name the owner


def test_owner_note_keeps_the_owners_name_zh() -> None:
    messages = chat(
        "u: pay-gateway 是谁在维护来着",
        "a: 之前没提过，我不知道。",
        "u: 想起来了 Lin Hao, pay-gateway 是他的. 以后 pay-gateway 的问题都找他",
        "a: 好：`pay-gateway` 由 Lin Hao 维护，相关问题找他。",
    )
    notes = saved(extract(messages))
    assert any("lin hao" in text_of(n) and "pay-gateway" in text_of(n) for n in notes)


def test_owner_note_keeps_the_owners_name_en() -> None:
    messages = chat(
        "u: who maintains ledger-sync again?",
        "a: I don't know, it hasn't come up.",
        "u: right, it's Tomasz Wolny's. from now on any ledger-sync question goes to him",
        "a: Got it: `ledger-sync` is maintained by Tomasz Wolny; questions go to him.",
    )
    notes = saved(extract(messages))
    assert any("tomasz" in text_of(n) and "ledger-sync" in text_of(n) for n in notes)


# --------------------------------------------------------------------------- "do it like this" adopts the proposal


def test_rule_pointing_at_the_proposal_takes_its_identifier_zh() -> None:
    messages = chat(
        "u: CI 里 npm install 老是装出不一样的版本",
        "a: 用 `npm ci` 代替 `npm install`：它严格按 `package-lock.json` 装，lock 对不上直接报错。",
        "u: 好, 以后所有 pipeline 都这么写",
        "u: 午饭吃啥",
    )
    notes = saved(extract(messages))
    assert any("npm ci" in text_of(n) and "pipeline" in text_of(n) for n in notes)


def test_rule_pointing_at_the_proposal_takes_its_identifier_en() -> None:
    messages = chat(
        "u: the image keeps rebuilding the whole layer cache",
        "a: Put `COPY go.mod go.sum ./` and `RUN go mod download` before copying the source, so deps stay cached.",
        "u: nice. from now on every Go service does it like this",
    )
    notes = saved(extract(messages))
    assert any("go.mod" in text_of(n) and "every go service" in text_of(n).lower() for n in notes)


def test_rule_that_says_its_own_content_is_not_rewritten_zh() -> None:
    messages = chat(
        "a: 节点名可以用 `balcony-env` 这种格式。",
        "u: 以后新节点都照这个来：名字统一 位置-env，密码一律从 secrets.yaml 引用",
        "a: 记下了：节点命名 位置-env；密码从 `secrets.yaml` 引用。",
    )
    notes = saved(extract(messages))
    assert any("secrets.yaml" in text_of(n) for n in notes)
    assert not any("balcony-env` 这种格式" in text_of(n) for n in notes)
