"""A value the user states in answer to the assistant's open question ("Ports?" — "8443") is a
candidate even when the assistant does not repeat it — weaker than an acknowledged fact, and
never the answer to a yes/no check, a diagnostic step with a command, or the opening "What's up?"."""

from __future__ import annotations

from savenow.extract.heuristic import rules, signals
from savenow.extract.heuristic.statements import _asks_for_a_fact, statements
from tests.extract.support import chat


def _score_of(messages, words: str) -> float:
    with signals.chat_memo():
        found = [s for s in statements(messages) if words in s.text]
    assert found, words
    return found[0].score


def test_open_questions_ask_for_a_fact_yes_no_checks_do_not() -> None:
    assert _asks_for_a_fact("Ports?")
    assert _asks_for_a_fact("Where does the Caddyfile live on this box?")
    assert _asks_for_a_fact("备份怎么做？")
    assert _asks_for_a_fact("订单号呢？")
    assert not _asks_for_a_fact("Did the monitor go red?")
    assert not _asks_for_a_fact("是不是填了 dns.google 之类的？")
    assert not _asks_for_a_fact("酒店定了吗？")
    assert not _asks_for_a_fact("`which rclone` 看看装在哪？")  # a step to run, its answer a finding


def test_an_answered_value_is_a_candidate_en() -> None:
    asked = chat(
        "u: setting up a second staging box",
        "a: Sure. What's it called?",
        "u: kiln-stg-02",
        "a: Ports?",
        "u: The admin dashboard listens on 9443",
    )
    plain = chat(
        "u: setting up a second staging box",
        "a: Sure.",
        "u: kiln-stg-02",
        "a: Okay.",
        "u: The admin dashboard listens on 9443",
    )
    gain = _score_of(asked, "9443") - _score_of(plain, "9443")
    assert gain == rules.STATED_VALUE.weight
    assert rules.STATED_VALUE.weight < rules.RESTATED_WITH_IDS.weight  # acknowledged facts rank first


def test_an_answered_value_is_a_candidate_zh() -> None:
    asked = chat(
        "u: 新买了台 VPS，帮我记一下配置",
        "a: 好的，主机名是什么？",
        "u: yunque-sg1",
        "a: 备份怎么做？",
        "u: 每天凌晨 3 点 pg_dump 到 /var/backups/umami，保留 14 天",
    )
    plain = chat(
        "u: 新买了台 VPS，帮我记一下配置",
        "a: 好的。",
        "u: yunque-sg1",
        "a: 嗯。",
        "u: 每天凌晨 3 点 pg_dump 到 /var/backups/umami，保留 14 天",
    )
    assert _score_of(asked, "pg_dump") - _score_of(plain, "pg_dump") == rules.STATED_VALUE.weight


def test_no_candidate_from_a_yes_no_check_or_the_opening_question() -> None:
    checked = chat(
        "u: printing fails again",
        "a: Let's look.",
        "u: the queue is stuck",
        "a: Did you upgrade macOS recently?",
        "u: upgraded to 15.2 last week",
    )
    plain = chat(
        "u: printing fails again",
        "a: Let's look.",
        "u: the queue is stuck",
        "a: Let's look.",
        "u: upgraded to 15.2 last week",
    )
    assert _score_of(checked, "15.2") == _score_of(plain, "15.2")
    opening = chat("a: 今天弄点什么？", "u: 昨晚往 abs 里加了 6 本新书")
    bare = chat("a: 嗯。", "u: 昨晚往 abs 里加了 6 本新书")
    assert _score_of(opening, "6 本") == _score_of(bare, "6 本")
