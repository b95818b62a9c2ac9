"""Round 13 rules pass (issue 15): values a later message changes, and names that are no names.

Each rule has a test in English and in Chinese. The chats are invented for the rule; none comes
from an evaluation set.
"""

from __future__ import annotations

from savenow.compaction.summary import proper_nouns, verbatim_ids

from .test_summary_rules import chat, summarize

# ---------------------------------------------------------------- a date typed with spaces is one value


def test_a_chinese_date_typed_with_spaces_is_one_value():
    assert "12 月 18 号" in verbatim_ids("评审定在 12 月 18 号，还有三周")
    assert "2027 年 3 月" in verbatim_ids("合同到 2027 年 3 月")
    assert "Dec 18" in verbatim_ids("the review is on Dec 18, three weeks out")


def test_a_moved_date_typed_with_spaces_drops_the_old_one():
    zh = summarize(
        chat(
            ("user", "好。评审定在 12 月 18 号，还有三周"),
            ("assistant", "收到，评审 12 月 18 日。"),
            ("user", "刚收到通知，评审改到 12 月 22 号了，会议室冲突"),
        )
    )
    assert "12 月 22 号" in zh
    assert "12 月 18" not in zh
    en = summarize(
        chat(
            ("user", "ok. the review is set for Dec 18"),
            ("assistant", "Noted, review on Dec 18."),
            ("user", "just heard the review moved to Dec 22, room clash"),
        )
    )
    assert "Dec 22" in en
    assert "Dec 18" not in en


# ---------------------------------------------------------------- a change that opens its clause


def test_a_change_opening_its_clause_drops_the_time_of_the_clause_before():
    zh = summarize(
        chat(
            ("user", "备份每天晚上 23:30 跑吧"),
            ("assistant", "好，先按 23:30。"),
            ("user", "还有时间，23:30 有时候我们还在对账，改成凌晨 1 点 15 吧"),
        )
    )
    assert "1 点 15" in zh
    assert "23:30" not in zh
    en = summarize(
        chat(
            ("user", "run the backup nightly at 23:30"),
            ("assistant", "OK, 23:30 for now."),
            ("user", "one more thing, 23:30 we are often still counting the till, change it to 01:15"),
        )
    )
    assert "01:15" in en
    assert "23:30" not in en


def test_a_change_opening_its_clause_keeps_a_value_of_another_kind_before_it():
    zh = summarize(chat(("user", "备份脚本是 /opt/shop/backup.sh，改成每天 2 点跑")))
    assert "/opt/shop/backup.sh" in zh
    en = summarize(chat(("user", "the script is /opt/shop/backup.sh, change it to 02:00 nightly")))
    assert "/opt/shop/backup.sh" in en


# ---------------------------------------------------------------- what one does at a place names no place


def test_eating_or_fearing_something_at_a_kind_of_place_names_no_place():
    assert proper_nouns("我老婆说今晚吃火锅") == []
    assert proper_nouns("我妈说她不怕开刀 就怕吃医院的饭") == []
    assert proper_nouns("晚饭订在巷子深火锅") == ["巷子深火锅"]
    assert proper_nouns("dinner is at Lotus Garden tonight") == ["Lotus Garden"]


def test_a_joke_about_a_kind_of_place_is_chatter():
    zh = summarize(chat(("user", "哈哈 我妈说她不怕开刀 就怕吃医院的饭"), ("assistant", "哈哈，阿姨很实在")))
    assert "医院的饭" not in zh
    en = summarize(chat(("user", "haha mum says she's not scared of surgery, only of hospital food")))
    assert "hospital food" not in en


# ---------------------------------------------------------------- what a sed replacement sets


def test_a_sed_replacement_sets_an_options_value_and_a_later_one_replaces_it():
    zh = summarize(
        chat(
            ("user", "接口太慢了，worker 加到 5 个"),
            ("assistant", "", "bash", "sudo sed -i 's/-w 3/-w 5/' /etc/systemd/system/shop-api.service"),
            ("assistant", "改好了，已重启。"),
        )
    )
    assert "`-w 5`" in zh
    en = summarize(
        chat(
            ("user", "raise the go test timeout in ci.yml"),
            ("assistant", "", "bash", "sed -i 's/-timeout 10m/-timeout 20m/' .github/workflows/ci.yml"),
            ("user", "too long, it hides hangs. 12m"),
            ("assistant", "", "bash", "sed -i 's/-timeout 20m/-timeout 12m/' .github/workflows/ci.yml"),
        )
    )
    assert "`-timeout 12m`" in en
    assert "-timeout 20m`" not in en


def test_a_sed_replacement_that_adds_a_keyword_argument_sets_it():
    zh = summarize(
        chat(
            ("user", "读出来全是乱码"),
            (
                "assistant",
                "",
                "bash",
                "sed -i \"s/pd.read_csv(path)/pd.read_csv(path, encoding='gbk')/\" settle.py",
            ),
        )
    )
    assert "encoding='gbk'" in zh
    en = summarize(
        chat(
            ("user", "the worker can't reach the database over the VPN"),
            ("assistant", "", "bash", "sed -i \"s/connect(dsn)/connect(dsn, sslmode='require')/\" db.py"),
        )
    )
    assert "sslmode='require'" in en


# ---------------------------------------------------------------- the identifier line lists a value once


def _identifier_line(*lines: tuple[str, list[str]]) -> str:
    from savenow.compaction.summary import Line, _fit

    long = " and then a long stretch of words that cannot fit in the budget at all" * 3
    candidates = [
        Line("context", text + long, order, frozenset(ids)) for order, (text, ids) in enumerate(lines)
    ]
    summary = _fit(candidates, [], {}, {}, messages=10, tokens=400, budget=60)
    return next(line for line in summary.splitlines() if line.startswith("- `"))


def test_a_value_written_in_two_cases_is_listed_once():
    en = _identifier_line(
        ("movers on 12 December, ref PS-2026-118734", ["12 December", "PS-2026-118734"]),
        ("pack the kitchen before 12 december", ["12 december"]),
    )
    assert en.casefold().count("12 december") == 1
    assert "PS-2026-118734" in en
    zh = _identifier_line(
        ("搬家公司 12 月 18 号来，车牌 沪A·K8Q21", ["12 月 18 号", "沪A·K8Q21"]),
        ("12 月 18 号前把厨房收好，车牌 沪a·k8q21", ["沪a·k8q21"]),
    )
    assert zh.casefold().count("沪a·k8q21") == 1
