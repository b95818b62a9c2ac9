"""Placement judges a section by its subject and bullets, not by the kind labels savenow writes (issue 12)."""

from __future__ import annotations

from savenow.extract.heuristic.pipeline import subject_views
from savenow.extract.heuristic.titles import heading_subject
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

PREPARED = MemorySection(
    "Prepared statement: root cause and fix",
    (
        "Cause: pgbouncer in transaction mode drops prepared statements between transactions.",
        "Fix: set `prepare_threshold=None` in the psycopg connection for the `orders-api` service.",
    ),
    "12:29",
)
PREPARED_ZH = MemorySection(
    "预编译语句：根因与修复",
    ("根因：pgbouncer 事务模式下预编译语句在事务之间丢失。", "修复：`orders-api` 的连接设 `prepare_threshold=None`。"),
    "12:29",
)


def _unrelated_incident_en() -> list:
    return chat(
        "u: uploads over 30 MB fail with 413 on files.example.org, what's the root cause?",
        "a: The `location /upload` block in files.conf sets its own `client_max_body_size 20m`, overriding the server's 50m.",
        "u: makes sense, so the fix?",
        "a: Fix: raise `client_max_body_size` to 200m inside `location /upload` and reload nginx.",
        "u: done, uploads work now. thanks!",
    )


def _unrelated_incident_zh() -> list:
    return chat(
        "u: 相册备份又失败了，根因是什么？",
        "a: 根因：`restic` 的仓库密码文件 `/etc/restic/pass` 权限是 600，属主是 root，备份任务以 backup 用户跑，读不到。",
        "u: 那怎么修复？",
        "a: 修复：把 `/etc/restic/pass` 的属主改成 backup：`chown backup /etc/restic/pass`，然后重跑备份。",
        "u: 好了，备份成功了",
    )


def test_heading_subject_drops_only_savenow_kind_labels() -> None:
    assert heading_subject("Prepared statement: root cause and fix") == "Prepared statement"
    assert heading_subject("网关 token：根因与修复") == "网关 token"
    assert heading_subject("用户偏好") == "用户偏好"  # a subject, not a label after a colon
    assert heading_subject("Fix") == "Fix"


def test_subject_views_map_back_to_the_real_headings() -> None:
    twin = MemorySection("Prepared statement: rule", ("Never use server-side prepares with pgbouncer.",))
    views, real = subject_views([PREPARED, twin])
    assert [v.title for v in views] == ["Prepared statement", "Prepared statement: rule"]
    assert real["Prepared statement"] == PREPARED.title


def test_savenows_own_heading_does_not_attract_an_unrelated_incident_en() -> None:
    notes = [n for n in saved(extract(_unrelated_incident_en(), [PREPARED])) if "client_max_body_size" in text_of(n)]
    assert notes and all(n.merge_target_title != PREPARED.title for n in notes)


def test_savenows_own_heading_does_not_attract_an_unrelated_incident_zh() -> None:
    notes = [n for n in saved(extract(_unrelated_incident_zh(), [PREPARED_ZH])) if "/etc/restic/pass" in text_of(n)]
    assert notes and all(n.merge_target_title != PREPARED_ZH.title for n in notes)


def test_a_note_on_the_section_subject_still_merges_under_its_real_heading() -> None:
    messages = chat(
        "u: the prepared statement errors are back on orders-api after the pgbouncer upgrade",
        "a: `prepare_threshold=None` was dropped from the `orders-api` connection string in the upgrade; restoring it fixes it.",
        "u: yes that fixed it. from now on the pgbouncer upgrade runbook checks `prepare_threshold=None` in `deploy/orders.env`",
        "a: Noted: after every pgbouncer upgrade, check `prepare_threshold=None` in `deploy/orders.env`.",
    )
    notes = [n for n in saved(extract(messages, [PREPARED])) if "prepare_threshold" in text_of(n)]
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == PREPARED.title
