"""Placement: in a chat about one section, a detail that shares no word with its bullets still merges
there — unless the note names another product or host, which is a subject of its own."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

BOT = MemorySection(
    "钉钉告警机器人",
    (
        "alert-relay 把 Alertmanager 的告警转发到钉钉群「线上告警」。",
        "webhook 地址放在 `DINGTALK_WEBHOOK_URL`。",
    ),
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
    notes = [
        n for n in saved(extract(messages, [CACHE, EXPENSES])) if "uploads.direct.shop.dev" in text_of(n)
    ]
    assert len(notes) == 1
    assert notes[0].action == "add"


QUOTES = MemorySection("摄影报价", ("婚纱照：半天 3000 元，全天 5000 元。", "开票加 3% 税点。"))
CLIENTS = MemorySection("摄影客户", ("青禾婚庆：长期合作，走对公转账。", "小鹿工作室：按单结算。"))


def test_a_note_opening_on_a_name_another_section_lists_goes_there_zh() -> None:
    messages = chat(
        "u: 帮我算下这单怎么报价",
        "a: 好的，是哪个客户？半天还是全天？",
        "u: 青禾婚庆那边的，全天，两套服装",
        "a: 按你的报价全天 5000 元，开票再加 3% 税点。",
        "u: 以后全天统一 5500 元",
        "a: 明白，全天改为 5500 元。",
        "u: 对了青禾婚庆的对接人换了，以后找策划部的周宁，微信 zhouning_qh",
        "a: 好的，青禾婚庆对接人：周宁，微信 zhouning_qh。",
        "u: 好",
    )
    notes = [n for n in saved(extract(messages, [QUOTES, CLIENTS])) if "zhouning_qh" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "摄影客户"


PRICING = MemorySection("Print pricing", ("Business cards: 45 per 500.", "Rush jobs add 20%."))
PRINT_CLIENTS = MemorySection(
    "Print clients",
    ("Harbor Books: paperback covers, pays by bank transfer.", "Lumen Cafe: menus, pays on pickup."),
)


def test_a_note_opening_on_a_name_another_section_lists_goes_there_en() -> None:
    messages = chat(
        "u: need a quote for a rush order of business cards",
        "a: Sure. Who is it for, and how many?",
        "u: Harbor Books, 1000 cards",
        "a: That is 90 for 1000, plus 20% for the rush: 108.",
        "u: from now on rush jobs add 25%, 20% barely covers the overtime",
        "a: Noted: rush jobs add 25%.",
        "u: oh and their contact changed, now it is Dana Whitfield, dana@harborbooks.example",
        "a: Harbor Books contact: Dana Whitfield, dana@harborbooks.example.",
        "u: Harbor Books pays monthly now, on the 25th",
        "a: Got it: Harbor Books pays monthly, on the 25th.",
    )
    notes = [n for n in saved(extract(messages, [PRICING, PRINT_CLIENTS])) if "25th" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Print clients"


THESIS = MemorySection("毕业论文", ("学校模板，用 LaTeX 写。", "导师每两周看一次进度。"))
INTERNET = MemorySection("家里网费", ("电信宽带，每月 100 元。",))


def test_the_only_section_a_chat_touches_is_its_home_on_less_evidence_zh() -> None:
    messages = chat(
        "u: 论文模板要换了，学校出了新版",
        "a: 新版模板在哪下载？版本号是多少？",
        "u: thuthesis v7.6，学校官网有",
        "a: 好的。迁移的话把各章 `.tex` 拷过去，在 `main.tex` 里 `\\include` 就行。",
        "u: 拷过去了 编译通过",
        "a: 参考文献怎么处理？",
        "u: 记一下：新模板是 thuthesis v7.6，参考文献用模板自带的 `biblatex` + `gb7714-2015` 样式",
        "a: 好的，记下了。",
    )
    notes = [n for n in saved(extract(messages, [THESIS, INTERNET])) if "gb7714-2015" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "毕业论文"


CARE = MemorySection(
    "Dad's health",
    ("GP: Dr Mensah at Northgate Surgery.", "Repeat prescriptions via Lloyds pharmacy."),
)
CAR = MemorySection("Car", ("MOT due in March.",))


def test_a_bullet_with_a_name_the_saved_one_lacks_is_no_duplicate_en() -> None:
    messages = chat(
        "u: Dr Mensah rang about dad",
        "a: What did she say?",
        "u: repeat prescriptions via Boots pharmacy from now on",
        "a: Noted: repeat prescriptions via Boots pharmacy.",
        "u: thanks",
    )
    entries = extract(messages, [CARE, CAR])
    notes = [n for n in entries if "boots" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action != "skip"


PHARMACY = MemorySection("爸爸的药", ("降压药：氨氯地平 5mg，每天早上。", "以后处方药都在 Mannings 拿。"))
FEES = MemorySection("家里网费", ("电信宽带，每月 100 元。",))


def test_a_bullet_with_a_name_the_saved_one_lacks_is_no_duplicate_zh() -> None:
    messages = chat(
        "u: 爸爸的药 以后换地方拿了",
        "a: 换到哪家？",
        "u: 以后处方药都在 Watsons 拿",
        "a: 好的，以后处方药都在 Watsons 拿。",
        "u: 嗯",
    )
    notes = [n for n in extract(messages, [PHARMACY, FEES]) if "watsons" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action != "skip"
