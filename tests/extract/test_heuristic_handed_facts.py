"""Facts handed over tersely: the user states an identifier, the assistant only says "Noted." / "好的。"
(rules.HANDED_FACT). A count or a measure in a status report, and a ticket, are not such facts."""

from __future__ import annotations

from tests.extract.support import chat, extract, saved, text_of


def _texts(messages: list) -> list[str]:
    return [text_of(e) for e in saved(extract(messages))]


def test_an_address_handed_over_with_a_bare_noted_is_kept_en() -> None:
    messages = chat(
        "u: new laptop is on the vpn now",
        "a: Good.",
        "u: peer for the new laptop is 10.8.0.14",
        "a: Noted.",
        "u: ok that's all for today",
    )
    texts = _texts(messages)
    assert any("10.8.0.14" in t for t in texts)


def test_an_account_handed_over_with_a_bare_haode_is_kept_zh() -> None:
    messages = chat(
        "u: 快递的事情定了",
        "a: 好的。",
        "u: 中通的月结账号 ZT-5530918",
        "a: 好的。",
        "u: 就这些",
    )
    texts = _texts(messages)
    assert any("zt-5530918" in t for t in texts)


def test_a_count_in_a_status_report_is_not_a_handed_fact_zh() -> None:
    messages = chat(
        "u: 账单导入跑完了吗",
        "a: 你看下 Firefly 里的记录数。",
        "u: 导进去了 2381 笔",
        "a: 好的。",
    )
    assert not any("2381" in t for t in _texts(messages))


def test_a_reply_that_answers_the_report_is_no_bare_acknowledgement_en() -> None:
    messages = chat(
        "u: ran the dd test on the nas volume",
        "u: 220 MB/s on nas-01",
        "a: Okay, so the disk isn't the bottleneck; I was wrong about the drive.",
    )
    assert not any("220" in t for t in _texts(messages))


def test_a_support_ticket_is_a_one_off_however_acknowledged_en() -> None:
    messages = chat(
        "u: printer on floor 3 is down, called the vendor",
        "u: ticket RC-77120, tech comes thursday",
        "a: Noted.",
    )
    assert not any("rc-77120" in t for t in _texts(messages))


# --- the assistant's proposal, applied in the user's own words (rules.ADOPTED_OWN_WORDS)


def test_a_proposal_the_user_applies_naming_its_setting_is_kept_en() -> None:
    # a guard: the applied-later rule keeps this one too; the zh case below needs the adoption rule
    messages = chat(
        "u: the runner disk is full again, the pip cache was like 30gb",
        "a: Point the uv cache to the big disk: set `UV_CACHE_DIR=/data/uv-cache` in the runner's `.env`.",
        "u: ok set UV_CACHE_DIR=/data/uv-cache in the .env, changed and restarted",
        "a: Does the job pass now?",
        "u: not yet, still queued",
    )
    texts = _texts(messages)
    assert any("uv_cache_dir" in t for t in texts)


def test_a_proposal_the_user_applies_naming_its_setting_is_kept_zh() -> None:
    messages = chat(
        "u: cache-2 上的 redis 满了就拒写",
        "a: 策略是 noeviction。缓存场景应该用 `allkeys-lru`。",
        "u: 改了 CONFIG SET maxmemory-policy allkeys-lru，也写进 /etc/redis/redis.conf 了",
        "a: 内存现在用了多少？",
        "u: 7.8G",
    )
    texts = _texts(messages)
    assert any("allkeys-lru" in t for t in texts)


def test_a_name_the_user_turns_down_is_not_adopted() -> None:
    from savenow.extract.heuristic.chat import adopted_ids, read_chat

    messages = chat(
        "u: KeyError: 'TW_BROKER'",
        "a: 那要么改 .env 为 `TW_BROKER`，要么改代码。",
        "u: 统一叫 TIDEWATCH_BROKER_URL 吧 TW_BROKER 太短了 代码和 .env 都改",
    )
    assert adopted_ids(read_chat(messages), 2) == frozenset()


def test_work_just_done_answered_with_a_bare_haode_is_no_handed_fact_zh() -> None:
    messages = chat(
        "u: 刚把代码 push 到 feature/login-fix 分支了",
        "a: 好的。",
        "u: 我去吃饭了",
    )
    assert not any("feature/login-fix" in t for t in _texts(messages))


def test_work_in_progress_answered_with_a_bare_okay_is_no_handed_fact_en() -> None:
    messages = chat(
        "u: I'm ssh'd into db-02.internal, checking the disk",
        "a: Okay.",
        "u: back in a bit",
    )
    assert not any("db-02.internal" in t for t in _texts(messages))


# --- a handed fact's value need not be an identifier: a code, an amount, a time (rules.HANDED_FACT)


def test_a_passport_number_handed_over_is_kept_zh() -> None:
    messages = chat(
        "u: 日本签证的材料准备好了",
        "a: 好的。",
        "u: 护照号要更新 新的是 EK4419023",
        "a: 好的。",
        "u: 就这些",
    )
    assert any("ek4419023" in t for t in _texts(messages))


def test_an_amount_handed_over_is_kept_en() -> None:
    messages = chat(
        "u: sorted out the accountant for this year",
        "a: Great.",
        "u: her fee is £450 a year",
        "a: Noted.",
        "u: that's all",
    )
    assert any("450" in t for t in _texts(messages))


def test_a_count_of_rows_handed_over_is_a_status_en() -> None:
    messages = chat(
        "u: did the import finish?",
        "a: Check the row count in the admin page.",
        "u: imported 2381 rows",
        "a: Noted.",
    )
    assert not any("2381" in t for t in _texts(messages))


def test_a_ticket_reference_is_a_one_off_however_acknowledged_en() -> None:
    messages = chat(
        "u: booked the night train to Vienna",
        "u: done. ticket ref NJ-88Q2TL",
        "a: Noted.",
    )
    assert not any("nj-88q2tl" in t for t in _texts(messages))


def test_a_ticket_order_number_is_a_one_off_however_acknowledged_zh() -> None:
    messages = chat(
        "u: 去杭州的高铁订好了",
        "u: 车票订单号 E123456789",
        "a: 好的。",
    )
    assert not any("e123456789" in t for t in _texts(messages))
