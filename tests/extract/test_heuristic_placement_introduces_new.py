"""Placement: a note that opens by introducing a new thing ("新客户 …", "New category …") is a fact of its
own, added beside the section it resembles — unless it gives one of that section's values a new one;
a rule about any new one ("New ignore patterns always go …") is no introduction."""

from __future__ import annotations

from savenow.extract.heuristic.placement import _introduces_new
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

BUDGET = MemorySection(
    "Household budget (YNAB)",
    ("YNAB category 'Groceries': $600/month.", "YNAB category 'Car': $150/month."),
)
GARDEN = MemorySection("Garden", ("Tomatoes in the south bed.",))


def test_a_new_category_is_added_beside_the_budget_en() -> None:
    messages = chat(
        "u: setting up next year in YNAB",
        "a: Which categories change?",
        "u: add a new one: New YNAB category 'Gifts - Xmas', $75/month from January, target $900.",
        "a: Noted: New YNAB category 'Gifts - Xmas', $75/month from January, target $900.",
        "u: perfect, thanks",
    )
    notes = [n for n in saved(extract(messages, [BUDGET, GARDEN])) if "gifts" in text_of(n).casefold()]
    assert len(notes) == 1
    assert notes[0].action == "add"


CLIENTS = MemorySection(
    "翻译客户",
    ("青禾出版：英译中，¥220/千字，月结。", "交稿用 Word，修订模式。"),
)
BOOKS = MemorySection("记账", ("发票抬头写个人。",))


def test_a_new_client_is_added_beside_the_clients_zh() -> None:
    messages = chat(
        "u: 翻译客户这边有个新的",
        "a: 什么情况？",
        "u: 新客户蓝海童书，英译中，¥250/千字，交稿用 Google Docs，记一下",
        "a: 好的：新客户蓝海童书，英译中，¥250/千字，交稿用 Google Docs。",
        "u: 对",
    )
    notes = [n for n in saved(extract(messages, [CLIENTS, BOOKS])) if "蓝海童书" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "add"


def test_what_counts_as_introducing_a_new_thing() -> None:
    assert _introduces_new("新增赡养老人，每月 3000 元。")
    assert _introduces_new("New YNAB category 'Gifts'.")
    assert not _introduces_new("New port is 6380.")  # a new value of a known thing
    assert not _introduces_new("新的端口是 6380。")
    assert not _introduces_new("Renewed the certificate.")
