"""Placement: in a chat about one section, a detail that shares no word with its bullets still merges
there — unless the note names another product or host, which is a subject of its own."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

BOT = MemorySection(
    "钉钉告警机器人",
    ("alert-relay 把 Alertmanager 的告警转发到钉钉群「线上告警」。", "webhook 地址放在 `DINGTALK_WEBHOOK_URL`。"),
)
CHORES = MemorySection("家务分工", ("周六大扫除，我负责厨房。",))


def test_a_detail_of_the_chats_subject_merges_there_without_a_shared_word_zh() -> None:
    messages = chat(
        "u: 钉钉告警机器人又发不出去了 返回 310000",
        "a: 310000 一般是加签校验失败。机器人开了加签吗？",
        "u: 开了 昨天安全组强制开的 alert-relay 日志里全是这个错",
        "a: 开了加签后请求要带 timestamp 和 sign，timestamp 要用毫秒。",
        "u: 改成毫秒就好了",
        "a: 好。总结：timestamp 用毫秒，sign 用 HmacSHA256 加 base64 再 urlencode。",
        "u: 行",
    )
    notes = [n for n in saved(extract(messages, [BOT, CHORES])) if "urlencode" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "钉钉告警机器人"


CACHE = MemorySection(
    "Session cache",
    ("Redis on cache-01, port 6379.", "Eviction policy `allkeys-lru`."),
)
EXPENSES = MemorySection("Expenses", ("Receipts go to the shared drive folder `receipts/2026`.",))


def test_a_fact_about_the_chats_subject_merges_there_en() -> None:
    messages = chat(
        "u: the session cache keeps losing carts",
        "a: How big is it allowed to grow? Check `maxmemory` on cache-01.",
        "u: it is 6gb, that should be plenty",
        "a: Did a restart change anything?",
        "u: restarting did nothing either",
        "a: Then something else drops them. How are the cart keys named?",
        "u: each cart is one hash, keyed `cart:<user_id>`, written by the checkout worker",
        "a: Got it: one hash per cart, `cart:<user_id>`, written by the checkout worker.",
        "u: and it turns out the worker sets no TTL at all, fine for now",
    )
    notes = [n for n in saved(extract(messages, [CACHE, EXPENSES])) if "cart:<user_id>" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Session cache"


def test_a_note_naming_another_product_is_added_en() -> None:
    messages = chat(
        "u: the session cache on cache-01 keeps timing out from the shop",
        "a: Is the shop going through the proxy? Check where the request breaks.",
        "u: the errors only happen for uploads",
        "a: Uploads over 100 MB time out because Cloudflare caps request bodies "
        "at 100 MB, so large uploads must go through uploads.direct.shop.dev.",
        "u: ok so large uploads always go through uploads.direct.shop.dev",
        "a: Noted.",
    )
    notes = [n for n in saved(extract(messages, [CACHE, EXPENSES])) if "uploads.direct.shop.dev" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "add"
