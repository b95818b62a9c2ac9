"""The comparer: identifiers and values decide before wording does (DESIGN §7, issue 12)."""

from __future__ import annotations

import pytest

from savenow.memory.compare import REASON_DUPLICATE_SECTION, REASON_UPDATED, plan
from savenow.models import Entry
from savenow.text.identifiers import values

MEMORY = """# 2026-05-15

## 09:00 - Server 1 IP
- server 1 is 10.0.0.1

## 09:10 - Redis port
- Redis listens on 6379

## 09:20 - 数据库地址
- 主库在 10.0.0.5:5432

## 09:30 - Deploy rule
- Deploy: run the tests, tag the release, push the image

## 09:40 - Release
- Current release tag is v1.4.1, config in /etc/app/app.yaml

## 09:50 - 家长群
- 家长群由 Kenji 管理，每节课 280 元
"""


def decide(title: str, bullets: list[str]):
    (decision,) = plan([Entry(title, bullets)], MEMORY)
    return decision


def test_another_server_with_another_ip_is_an_add_not_a_duplicate() -> None:
    decision = decide("Server 2 IP", ["server 2 is 10.0.0.2"])
    assert decision.action == "add"


def test_a_changed_port_merges_into_the_section_it_updates() -> None:
    decision = decide("Redis port", ["Redis now listens on 6380 (changed from 6379)"])
    assert decision.action == "merge" and decision.reason == REASON_UPDATED
    assert decision.entry.merge_target_title == "Redis port"
    assert decision.entry.bullets == ["Redis now listens on 6380 (changed from 6379)"]
    assert decision.target_section == 1


def test_a_moved_database_merges_its_new_address_in_chinese() -> None:
    decision = decide("数据库地址", ["主库迁到了 10.0.0.9:5432"])
    assert decision.action == "merge" and decision.entry.merge_target_title == "数据库地址"


@pytest.mark.parametrize(
    ("bullet", "why"),
    [
        ("Current release tag is v1.4.2, config in /etc/app/app.yaml", "version"),
        ("Current release tag is v1.4.1, config in /etc/app/config.yaml", "path"),
    ],
)
def test_a_new_version_or_path_is_never_skipped(bullet: str, why: str) -> None:
    decision = decide("Release", [bullet])
    assert decision.action == "merge", why
    assert decision.entry.bullets == [bullet]


@pytest.mark.parametrize(
    "bullet",
    ["家长群由 Bob 管理，每节课 280 元", "家长群由 Kenji 管理，每节课 300 元"],
    ids=["name", "amount"],
)
def test_a_new_name_or_amount_is_never_skipped_in_chinese(bullet: str) -> None:
    decision = decide("家长群", [bullet])
    assert decision.action == "merge" and decision.entry.merge_target_title == "家长群"


def test_a_rule_that_gained_a_step_merges() -> None:
    bullet = "Deploy: run the tests, tag the release, push the image, then post in the ops channel"
    decision = decide("Deploy rule", [bullet])
    assert decision.action == "merge" and decision.entry.bullets == [bullet]


@pytest.mark.parametrize(
    ("title", "bullet"),
    [
        ("Redis port", "Redis listens on port 6379"),
        ("Deploy rules", "Deploy: run tests, tag release, push image"),
        ("数据库地址", "主库地址是 10.0.0.5:5432"),
        ("家长群", "家长群是 Kenji 管理的，每节课 280 元"),
    ],
)
def test_a_reworded_restatement_with_the_same_values_is_still_skipped(title: str, bullet: str) -> None:
    decision = decide(title, [bullet])
    assert decision.action == "skip" and decision.is_duplicate_skip


def test_a_restatement_in_the_other_language_is_skipped() -> None:
    decision = decide("Redis 端口", ["Redis 端口是 6379"])
    assert decision.action == "skip" and decision.reason == REASON_DUPLICATE_SECTION


def test_the_other_language_with_a_new_value_is_kept() -> None:
    assert decide("Redis 端口", ["Redis 端口改成 6380 了"]).action != "skip"


def test_bullet_keys_that_collide_do_not_hide_a_new_ip() -> None:
    # "10.0.0.1" and "100.0.0.1" normalize to the same bullet key; the values tell them apart.
    decision = decide("Servers", ["server 1 is 100.0.0.1"])
    assert decision.action != "skip"


def test_values_cover_numbers_names_and_identifiers() -> None:
    assert values("Redis now listens on 6380") == {"6380"}
    assert {"10.0.0.2", "2"} <= values("server 2 is 10.0.0.2")
    assert "kenji" in values("etl 以后找 Kenji") and "10000" in values("每 10,000 km 换一次")
    assert "restart" not in values("Restart nginx after editing.")


def test_an_update_says_why_it_merges_in_the_preview() -> None:
    from savenow.memory.preview import render_preview

    decisions = plan([Entry("Redis port", ["Redis now listens on 6380"], reason="New durable fact.")], MEMORY)
    text = render_preview(decisions, memory_label="memory/2026-05-15.md")
    assert 'MERGE — Redis port → existing "Redis port"' in text
    assert "holds a value that section does not have yet" in text
