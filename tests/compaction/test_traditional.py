"""A Traditional Chinese session is summarized by the same rules, in the session's own characters."""

from __future__ import annotations

from .test_summary_rules import chat, summarize


def test_a_withdrawn_plan_is_dropped_and_the_summary_keeps_the_sessions_characters() -> None:
    summary = summarize(
        chat(
            ("user", "在訂單接口前面加一層 redis 緩存吧"),
            ("assistant", "可以，redis 用 6380 端口，TTL 5 分鐘。"),
            ("user", "算了，不加了，接口夠快"),
            ("assistant", "好，不加緩存。"),
            ("user", "部署機器是 app-03.internal，備份放到 /srv/dumps"),
        )
    )
    assert "6380" not in summary and "redis 緩存" not in summary
    assert "app-03.internal" in summary and "/srv/dumps" in summary
    assert "部署機器" in summary and "部署机器" not in summary


def test_a_simplified_path_in_a_traditional_session_stays_as_written() -> None:
    summary = summarize(
        chat(
            ("user", "幫我看看發布腳本為什麼失敗"),
            ("assistant", "", "read", "scripts/发布.sh"),
            ("tool", "exit 1: permission denied"),
            ("user", "改好了，權限加上了，發布成功"),
        )
    )
    assert "scripts/发布.sh" in summary and "發布.sh" not in summary
