"""Bullets without the chat's verdicts, reports and joining words (issue 12, round fourteen).

The blind readers of round thirteen rejected bullets that kept a reply's verdict ("对得上了：",
"好主意，这么干，", "Annoying, but fine:"), a report on having asked or done it ("问了，第三是…",
"… 已经改了"), a suggestion's wording ("可以改用 …"), a label said as a sentence ("根因是："), a
reminder ("Remember to …"), a joining word ("Then set …") or a change told as then-and-now
("以前 X 是 88 现在改 100 了"). Each rule in both languages where both say it.
"""

from __future__ import annotations

from datetime import date

import pytest

from savenow.extract.heuristic.form import tidy_bullet

DAY = date(2026, 11, 24)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("那就对得上了：备用线 20M 上行，高峰期容易打满。", "备用线 20M 上行，高峰期容易打满。"),
        ("好主意，这么干，migrate 只在 deploy pipeline 里跑。", "migrate 只在 deploy pipeline 里跑。"),
        ("有道理，备份保留 14 份。", "备份保留 14 份。"),
        (
            "Annoying, but fine: the gig is now Saturday 23 January 2027.",
            "The gig is now Saturday 23 January 2027.",
        ),
        ("Good idea, keep the staging box on 4.10.1.", "Keep the staging box on 4.10.1."),
        ("Sounds good: deploys go out at 09:00 UTC.", "Deploys go out at 09:00 UTC."),
    ],
)
def test_a_verdict_on_the_fact_is_no_part_of_it(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("问了，第三是换班必须提前 48 小时提交，不能私下换", "换班必须提前 48 小时提交，不能私下换。"),
        ("PRINTER_URL=http://10.0.0.7:8082 已经改了", "PRINTER_URL=http://10.0.0.7:8082"),
        # a change that says what it became keeps its words
        ("端口 8080 已经改成 8082 了", "端口 8080 已经改成 8082 了"),
    ],
)
def test_a_report_on_asking_or_doing_it_goes(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("可以改用 Decimal.quantize(ROUND_HALF_UP)。", "改用 Decimal.quantize(ROUND_HALF_UP)。"),
        ("可以把 `migrate` 改成只在 `--migrate` 时跑。", "把 `migrate` 改成只在 `--migrate` 时跑。"),
        ("Remember to open 6543 in the firewall group.", "Open 6543 in the firewall group."),
        ("Don't forget to rotate the key every 90 days.", "Rotate the key every 90 days."),
    ],
)
def test_a_suggestion_or_reminder_states_what_to_do(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("根因是：replica-2 没用 replication slot。", "根因：replica-2 没用 replication slot。"),
        ("The cause is: the upload block sets its own limit.", "Cause: the upload block sets its own limit."),
        # no colon, no label: a sentence
        ("原因是 DNS 没配。", "原因是 DNS 没配。"),
    ],
)
def test_a_label_said_as_a_sentence_is_the_label(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Then set `$pdf_mode = 4;` in `.latexmkrc`.", "Set `$pdf_mode = 4;` in `.latexmkrc`."),
        (
            "这样 workflow 里 `runs-on: [self-hosted, gpu-a10]` 两台都能接。",
            "workflow 里 `runs-on: [self-hosted, gpu-a10]` 两台都能接。",
        ),
        # too little left to stand alone: the line stays as said
        ("And 8 more", "And 8 more"),
    ],
)
def test_a_joining_word_at_the_start_goes(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a number changed keeps only its new value (later_values drops "从 88")
        ("以前 line-length 是 88 现在改 100 了", "line-length 改为 100。"),
        ("原来上课时间是 17:00，现在改成 17:30 了。", "上课时间改为 17:30。"),
        ("以前值班是周一，现在是周二", "值班从周一改为周二。"),
        # only then-and-now; a plain statement of today's value stays
        ("现在 line-length 是 100", "现在 line-length 是 100"),
    ],
)
def test_a_change_told_as_then_and_now_states_the_change(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


def test_a_short_bullet_that_negates_the_other_is_no_restatement() -> None:
    from savenow.extract.heuristic.form import once_each

    assert once_each(["No peanuts", "Bring peanuts for the party on Saturday."], [set(), set()]) == [
        "No peanuts",
        "Bring peanuts for the party on Saturday.",
    ]
    assert len(once_each(["Not Fridays", "Standup moved to Fridays at 9:30."], [set(), set()])) == 2
    # the same fact said shorter still goes
    assert once_each(["On the 15th", "Paydays: 15th and last day of the month."], [set(), set()]) == [
        "Paydays: 15th and last day of the month."
    ]


def test_a_done_verb_that_is_the_fact_stays_in_its_clause() -> None:
    from savenow.extract.heuristic.clauses import zh_clauses

    assert zh_clauses("路由器的 UPnP 已经关了。") == ["路由器的 UPnP 已经关了"]
    assert zh_clauses("旧服务器上的 MySQL 5.7 已经删了") == ["旧服务器上的 MySQL 5.7 已经删了"]
    # a changed value's report is still a clause of its own
    assert zh_clauses("PRINTER_URL=http://10.0.0.9 已经改了") == ["PRINTER_URL=http://10.0.0.9", "已经改了"]
