"""The entries JSON validator (DESIGN §5.2) and the injectable clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from savenow.clock import Clock, parse_now
from savenow.errors import BadInputError, ConfigError
from savenow.models import parse_entries


def test_bare_entry_means_add() -> None:
    [entry] = parse_entries({"title": "Nginx 上传大小限制", "bullets": ["client_max_body_size 200m"]})
    assert entry.action == "add" and entry.bullets == ["client_max_body_size 200m"]


def test_wrapped_and_listed_forms() -> None:
    raw = [{"title": "A", "bullets": ["- one", "two"], "action": "merge", "merge_target_title": "B"}]
    assert parse_entries({"entries": raw}) == parse_entries(raw)
    assert parse_entries(raw)[0].bullets == ["one", "two"]


def test_entries_without_title_or_bullets_are_dropped() -> None:
    assert (
        parse_entries([{"title": "", "bullets": ["x"]}, {"title": "t", "bullets": []}, {"title": "t"}]) == []
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("nope", "JSON array"),
        ([1], r"entries\[0\] must be an object"),
        ([{"title": 3, "bullets": ["x"]}], r"entries\[0\].title must be a string"),
        ([{"title": "t", "bullets": [{"x": 1}]}], r"bullets\[0\] must be a string"),
        ([{"title": "t", "bullets": ["x"], "action": "delete"}], "add, merge or skip"),
        ([{"title": "t" * 500, "bullets": ["x"]}], "too long"),
    ],
)
def test_wrong_shapes_are_specific(data: object, message: str) -> None:
    with pytest.raises(BadInputError, match=message):
        parse_entries(data)


def test_fixed_clock_and_advance() -> None:
    clock = Clock(tz=UTC, fixed=datetime(2026, 11, 29, 23, 50, tzinfo=UTC))
    assert clock.today().isoformat() == "2026-11-29"
    clock.advance(minutes=31)
    assert clock.today().isoformat() == "2026-11-30"


def test_savenow_now_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAVENOW_NOW", "2026-05-15T14:02:00+08:00")
    clock = Clock.from_env()
    assert clock.now().astimezone(UTC).hour == 6
    with pytest.raises(ConfigError, match="SAVENOW_NOW"):
        parse_now("yesterday")
