"""Round 14 (issue 15): a later message sets a value again, and the line with the old value goes.

Each rule has a test in English and in Chinese. The chats are invented for the rule; none comes
from an evaluation set.
"""

from __future__ import annotations

from .test_summary_rules import chat, summarize

# ---------------------------------------------------------------- "X. not Y", "X（不是 Y）", "X not Y"


def test_a_value_set_against_another_after_a_full_stop_drops_the_other():
    en = summarize(
        chat(
            ("user", "let's ask 1800 a month for the flat"),
            ("assistant", "Noted: asking 1800/month."),
            ("user", "1650. not 1800. parking still included"),
        )
    )
    assert "1650" in en and "1800" not in en


def test_a_value_set_against_another_in_brackets_drops_the_other():
    zh = summarize(
        chat(
            ("user", "备份每天 02:30 跑"),
            ("assistant", "好，02:30 跑备份。"),
            ("user", "运维说 02:30 跟日志轮转冲突"),
            ("assistant", "了解，备份改成 03:10（不是 02:30）。"),
        )
    )
    assert "03:10" in zh and "02:30" not in zh
    en = summarize(
        chat(
            ("user", "run the backup at 02:30"),
            ("assistant", "Backup switched to 03:10 (not 02:30)."),
        )
    )
    assert "03:10" in en and "02:30" not in en


def test_a_value_right_before_not_drops_the_one_after():
    en = summarize(
        chat(
            ("user", "the deposit is 10% of the price"),
            ("user", "new email from the seller: they want the deposit at 15% not 10%"),
        )
    )
    assert "15%" in en and "10%" not in en
    zh = summarize(chat(("user", "定金是 10%"), ("user", "卖家来信：定金要 15% 不是 10%")))
    assert "15%" in zh and "10%" not in zh


def test_not_after_a_word_sets_no_value_against_another():
    en = summarize(
        chat(
            ("user", "the cache holds 512MB and we do not need 256MB for the index"),
            ("user", "the index server is idx-02"),
        )
    )
    assert "512MB" in en and "256MB" in en
    zh = summarize(chat(("user", "缓存给 512MB 不是因为索引要 256MB"), ("user", "索引服务器是 idx-02")))
    assert "512MB" in zh and "256MB" in zh


def test_a_finding_set_against_a_value_keeps_it():
    en = summarize(
        chat(
            ("user", "the report job runs at 23:30"),
            ("assistant", "Checked the logs. it runs at 07:30. not 23:30."),
        )
    )
    assert "23:30" in en


# ---------------------------------------------------------------- "he doesn't want 20m"


def test_a_declined_value_goes_with_the_lines_that_set_it():
    en = summarize(
        chat(
            ("user", "raise the job timeout, make it 45m"),
            ("assistant", "Changing the timeout to 45m."),
            ("user", "the ops lead doesn't want 45m, says it hides hangs. use 25m"),
            ("assistant", "Setting the timeout to 25m."),
        )
    )
    assert "25m" in en and "45m" not in en
    zh = summarize(
        chat(
            ("user", "超时调到 45m"),
            ("user", "运维说 45m 作废，太长了，用 25m"),
        )
    )
    assert "25m" in zh and "45m" not in zh
