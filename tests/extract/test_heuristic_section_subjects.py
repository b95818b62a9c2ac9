"""Placement judges a section by its subject and bullets, not by the kind labels savenow writes (issue 12)."""

from __future__ import annotations

import pytest

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
    (
        "根因：pgbouncer 事务模式下预编译语句在事务之间丢失。",
        "修复：`orders-api` 的连接设 `prepare_threshold=None`。",
    ),
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
    notes = [
        n
        for n in saved(extract(_unrelated_incident_en(), [PREPARED]))
        if "client_max_body_size" in text_of(n)
    ]
    assert notes and all(n.merge_target_title != PREPARED.title for n in notes)


def test_savenows_own_heading_does_not_attract_an_unrelated_incident_zh() -> None:
    notes = [
        n for n in saved(extract(_unrelated_incident_zh(), [PREPARED_ZH])) if "/etc/restic/pass" in text_of(n)
    ]
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


MAILER = MemorySection(
    "Paperless",
    (
        "Runs on `doc-01` in docker, config in `/opt/paperless/docker-compose.env`.",
        "Consumption folder is `/srv/scans`.",
    ),
)
MAILER_ZH = MemorySection(
    "Paperless 文档库",
    ("跑在 `doc-01` 的 docker 里，配置在 `/opt/paperless/docker-compose.env`。", "扫描件放 `/srv/scans`。"),
)


def test_the_cause_and_fix_of_the_problem_the_chat_opened_on_merge_under_that_system_en() -> None:
    messages = chat(
        "u: paperless stopped sending mail notifications",
        "a: What does the log say when it tries?",
        "u: SMTPServerDisconnected: Connection unexpectedly closed",
        "a: Root cause: `PAPERLESS_EMAIL_USE_SSL` is false while `PAPERLESS_EMAIL_PORT=465` expects implicit TLS.",
        "a: Fix: set `PAPERLESS_EMAIL_USE_SSL=true` and restart the container.",
        "u: that fixed it, mails arrive again",
    )
    notes = [n for n in saved(extract(messages, [MAILER])) if "paperless_email_use_ssl" in text_of(n)]
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "Paperless"


def test_the_cause_and_fix_of_the_problem_the_chat_opened_on_merge_under_that_system_zh() -> None:
    messages = chat(
        "u: paperless 发不出邮件通知了",
        "a: 日志里报什么？",
        "u: SMTPServerDisconnected: Connection unexpectedly closed",
        "a: 根因：`PAPERLESS_EMAIL_USE_SSL` 是 false，而 `PAPERLESS_EMAIL_PORT=465` 要求一连上就 TLS。",
        "a: 修复：设 `PAPERLESS_EMAIL_USE_SSL=true`，然后重启容器。",
        "u: 好了，邮件能收到了",
    )
    notes = [n for n in saved(extract(messages, [MAILER_ZH])) if "paperless_email_use_ssl" in text_of(n)]
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "Paperless 文档库"


def test_a_cause_in_another_named_system_is_its_own_note() -> None:
    messages = chat(
        "u: paperless stopped sending mail notifications",
        "a: What does the log say when it tries?",
        "u: SMTPServerDisconnected: Connection unexpectedly closed",
        "a: Root cause: Mailgun's sandbox domain `sandbox42.mailgun.org` only delivers to authorised recipients.",
        "a: Fix: verify the recipient in Mailgun, or move to the `mg.example.org` domain.",
        "u: that fixed it, mails arrive again",
    )
    notes = [n for n in saved(extract(messages, [MAILER])) if "mailgun" in text_of(n)]
    assert notes and notes[0].action == "add"


@pytest.mark.parametrize(
    "owner_lines",
    [
        (
            "u: also, the mail templates belong to Oksana, changes to them need her review",
            "a: Noted: Oksana owns the mail templates; template changes need her review.",
        ),
        (
            "u: 另外，邮件模板归 Oksana 管，模板改动要她 review",
            "a: 记下了：邮件模板归 Oksana，改动要她 review。",
        ),
    ],
    ids=["en", "zh"],
)
def test_an_owner_of_a_part_of_the_system_the_chat_is_about_merges_there(
    owner_lines: tuple[str, str],
) -> None:
    messages = chat(
        "u: paperless stopped sending mail notifications",
        "a: Root cause: `PAPERLESS_EMAIL_USE_SSL` is false while `PAPERLESS_EMAIL_PORT=465` expects implicit TLS.",
        "a: Fix: set `PAPERLESS_EMAIL_USE_SSL=true` in `/opt/paperless/docker-compose.env` and restart it on doc-01.",
        "u: that fixed it, mails arrive again",
        *owner_lines,
    )
    notes = [n for n in saved(extract(messages, [MAILER])) if "oksana" in text_of(n)]
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "Paperless"


def test_an_owner_goes_to_the_section_that_lists_people_when_there_is_one() -> None:
    team = MemorySection("Team", ("Bob owns the `ledger-etl` pipeline.",))
    messages = chat(
        "u: paperless stopped sending mail notifications",
        "a: Root cause: `PAPERLESS_EMAIL_USE_SSL` is false while `PAPERLESS_EMAIL_PORT=465` expects implicit TLS.",
        "u: that fixed it. also, the mail templates belong to Oksana, changes to them need her review",
        "a: Noted: Oksana owns the mail templates; template changes need her review.",
    )
    notes = [n for n in saved(extract(messages, [MAILER, team])) if "oksana" in text_of(n)]
    assert notes and notes[0].merge_target_title == "Team"


@pytest.mark.parametrize(
    "lines",
    [
        (
            "u: morning. paperless is stuck, the consumer won't pick up files. can I just delete the lock file?",
            "a: Only once no consumer runs: check `docker compose ps` first, then remove `/srv/scans/.lock`.",
            "u: done, it picks them up again. make that the rule: never delete the consumer lock file while a consumer still runs",
            "a: Noted: never delete the consumer lock file while a consumer still runs.",
        ),
        (
            "u: paperless 卡住了，consumer 不处理文件，能直接删 lock 文件吗",
            "a: 先确认没有 consumer 在跑：`docker compose ps`，再删 `/srv/scans/.lock`。",
            "u: 好了，恢复了。以后定个规矩：consumer 还在跑的时候绝不删 lock 文件",
            "a: 记下了：consumer 还在跑时绝不删 lock 文件。",
        ),
    ],
    ids=["en", "zh"],
)
def test_a_rule_about_what_the_chat_opened_with_merges_under_that_system(lines: tuple[str, ...]) -> None:
    notes = [n for n in saved(extract(chat(*lines), [MAILER])) if "lock" in text_of(n)]
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "Paperless"


def test_a_short_lower_case_label_is_no_system_of_its_own_zh() -> None:
    messages = chat(
        "u: paperless 在 doc-01 上的回收站保留多久合适？`/opt/paperless/docker-compose.env` 里还没设",
        "a: 可以按环境分：prod 长一点，其他短一点。",
        "u: 就这么定：prod 的回收站留 30 天，其他一律 7 天",
        "a: 好的：prod 回收站 30 天，其他环境一律 7 天。",
    )
    notes = [n for n in saved(extract(messages, [MAILER_ZH])) if "30" in text_of(n)]
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "Paperless 文档库"
    assert not any(b.startswith("就这么定") for b in notes[0].bullets)


CAR_ZH = MemorySection("车", ("2021 款 Mazda CX-5；保养去永达，服务顾问王师傅。",))
HOUSE_ZH = MemorySection("家务", ("家里的提醒统一发到「家务」topic。",))
BAND = MemorySection("Band", ("Rehearsals at Kellerhaus studio, Marta books the room.",))
HOUSE = MemorySection("Household", ("Bins go out on Tuesday night.",))


def test_a_note_opening_on_someone_a_section_names_merges_there_zh() -> None:
    messages = chat(
        "u: 今天去做保养了",
        "a: 顺利吗？",
        "u: 王师傅说我们用的是全合成 0W-20，10,000 km 或者 12 个月换一次，记一下",
        "a: 记下了：王师傅建议全合成 0W-20，每 10,000 km 或 12 个月换一次，以先到者为准。",
    )
    notes = [n for n in saved(extract(messages, [HOUSE_ZH, CAR_ZH])) if "0w-20" in text_of(n)]
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "车"


def test_a_note_opening_on_someone_a_section_names_merges_there_en() -> None:
    messages = chat(
        "u: quick one for the notes",
        "u: Marta says the Kellerhaus room is now room 4 and costs 25 EUR per hour, for the record",
        "a: Noted: Marta says the rehearsal room is now room 4, 25 EUR per hour.",
    )
    notes = [n for n in saved(extract(messages, [HOUSE, BAND])) if "room 4" in text_of(n)]
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "Band"


def test_of_two_fitting_sections_the_one_whose_bullets_share_identifiers_wins() -> None:
    proxy = MemorySection(
        "Reverse proxy", ("Caddy on `edge-1` serves every site; config in `/etc/caddy/Caddyfile`.",)
    )
    sites = MemorySection("Reverse proxy sites", ("Blog and wiki are public.",))
    messages = chat(
        "u: for the notes: the reverse proxy on edge-1 now also serves grafana, its site block is in `/etc/caddy/sites/grafana.caddy`",
        "a: Noted: `edge-1` also proxies grafana; its site block is `/etc/caddy/sites/grafana.caddy`.",
    )
    notes = [n for n in saved(extract(messages, [sites, proxy])) if "grafana" in text_of(n)]
    assert notes and notes[0].merge_target_title == "Reverse proxy"


def test_known_hosts_with_a_new_fact_are_not_a_restatement() -> None:
    section = MemorySection("Backups", ("restic on `nas-01` backs up `/srv/photos` nightly.",))
    messages = chat(
        "u: for the notes: `nas-01` also has to keep `/srv/photos` snapshots for ninety days, the insurance requires it",
        "a: Noted: `/srv/photos` snapshots on `nas-01` are kept for ninety days (insurance requirement).",
    )
    notes = extract(messages, [section])
    assert any(n.action != "skip" and "ninety" in text_of(n) for n in notes)
