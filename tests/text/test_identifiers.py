"""Identifiers and values of the shared text toolkit (issue 12)."""

from __future__ import annotations

from savenow.text.identifiers import identifiers, values


def test_a_url_ends_at_chinese_punctuation() -> None:
    found = identifiers("控制台 https://nas-02.lan:9001，S3 API 是 9000。")
    assert "https://nas-02.lan:9001" in found
    assert not any("，" in i for i in found)


def test_values_hold_numbers_names_and_identifiers_in_both_languages() -> None:
    assert values("Redis now listens on 6380 (changed from 6379)") == {"6380", "6379"}
    assert {"kenji", "etl-pipeline"} <= values("etl-pipeline 以后找 Kenji")
    assert "280" in values("每节课 280 元") and "10000" in values("10,000 km")
    assert "alice" in values("billing changes go through Alice.")
    assert not values("Restart nginx after editing the config.")
