"""A percentage is a status ping ("72% done", "磁盘 31%") unless it is a rate that holds
("1.5% per month on overdue invoices", "年化 3% 每年"): a rate is a term worth keeping."""

from __future__ import annotations

from savenow.extract.heuristic.signals import LEX
from tests.extract.support import chat, extract, saved, text_of


def test_a_rate_per_month_is_no_status_en() -> None:
    assert LEX.STATUS.search("the upload is 72% done")
    assert not LEX.STATUS.search("1.5% per month on overdue invoices")
    assert not LEX.STATUS.search("a fee of 2% a month")
    messages = chat(
        "u: late fee: make it 1.5% per month, I'll add it to the terms",
        "a: Got it: 1.5% per month on overdue invoices, written into your standard terms.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "1.5% per month" in text_of(notes[0])


def test_a_rate_per_year_is_no_status_zh() -> None:
    assert LEX.STATUS.search("磁盘用了 31%")
    assert not LEX.STATUS.search("逾期部分按 0.05% 每天计息，年化 3% 每年")
    assert not LEX.STATUS.search("滞纳金 1.5%/月")
