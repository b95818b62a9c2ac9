"""The /recall reply text (the Telegram adapter sends it as is)."""

from __future__ import annotations

from savenow.search import MemorySearch, recall_reply


def test_reply_lists_path_line_date_and_snippet_in_english(search: MemorySearch) -> None:
    text = recall_reply(search, "证书到期", "en")
    assert text.startswith("Memory for “证书到期”:")
    assert "1. memory/2026-05-20.md:6 · 2026-05-20" in text and "2026-09-01" in text


def test_reply_in_chinese_and_memory_md_is_long_term(search: MemorySearch) -> None:
    text = recall_reply(search, "老婆生日", "zh")
    assert text.startswith("关于“老婆生日”的记忆：") and "MEMORY.md:3 · 长期记忆" in text


def test_nothing_found_and_usage(search: MemorySearch) -> None:
    assert recall_reply(search, "护照什么时候过期", "zh") == "记忆里没有找到与“护照什么时候过期”相关的内容。"
    assert recall_reply(search, "passport expiry", "en") == "Nothing in memory matches “passport expiry”."
    assert recall_reply(search, "   ", "en") == "Usage: /recall <what to look for>"
