"""The offline extractor's scoring rules form one table: each named once, found by its name."""

from __future__ import annotations

from savenow.extract.heuristic import rules


def test_every_rule_is_in_the_table_once_under_its_own_name() -> None:
    names = [rule.name for rule in rules.RULES]
    assert len(names) == len(set(names))
    for rule in rules.RULES:
        assert getattr(rules, rule.name.upper()) is rule
        assert rule.why
