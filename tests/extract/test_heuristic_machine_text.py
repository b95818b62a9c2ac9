"""Machine text (pasted logs, tracebacks, prompts, command output, bare URLs) never seeds a note."""

from __future__ import annotations

import pytest

from savenow.extract.heuristic.machine import is_machine_line, is_machine_text
from tests.extract.support import chat, extract, saved, text_of


@pytest.mark.parametrize(
    "line",
    [
        "Nov 26 10:02:40 ops-1 gateway[2211]: ws connect rejected: unauthorized",
        "2026-03-02 04:11:09,118 ERROR [worker-3] job sync failed",
        "2026/03/02 04:11:09 同步失败：连接超时",
        "WARN: disk almost full on /var",
        'level=error msg="upstream timed out" host=api-2',
        "Traceback (most recent call last):",
        '  File "/srv/app/jobs.py", line 41, in run',
        "psycopg2.OperationalError: could not connect to server",
        "$ systemctl --user status openclaw-gateway",
        "deploy@web-3:~$ df -h",
        "HTTP/1.1 502 Bad Gateway",
        "NAME    READY   STATUS    RESTARTS",
        "https://grafana.example.net/d/abc123?orgId=1",
        "链接：https://wiki.example.net/runbooks/db",
    ],
)
def test_machine_lines(line: str) -> None:
    assert is_machine_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Staging config is `/etc/acme/staging.yaml` and the app listens on port 8443.",
        "The runbook for failovers is https://wiki.example.net/runbooks/db, keep it updated.",
        "以后轮换 token 时，gateway.cmd 和环境变量必须一起改",
        "Error budgets are reviewed every Monday.",
        "Rollback = redeploy the previous tag, never hotfix on the box.",
    ],
)
def test_human_lines(line: str) -> None:
    assert not is_machine_line(line)


def test_unfenced_paste_is_a_paste() -> None:
    assert is_machine_text("2026-03-02 04:11:09 ERROR a\n2026-03-02 04:11:10 ERROR b\nretrying")
    assert not is_machine_text("We moved the DB to db-2.\nOld host: db-1\nPort stays 5432.")


def test_unfenced_log_lines_never_become_notes_en() -> None:
    messages = chat(
        "u: the sync job died again overnight",
        "u: 2026-03-02 04:11:09 ERROR [sync] connect to db-7.internal:5432 failed: timeout\n"
        "2026-03-02 04:11:39 ERROR [sync] giving up after 3 retries",
        "a: Got it: the sync job gives up after 3 retries on db-7.internal:5432.",
        "u: https://status.example.net/incidents/4411",
        "a: Noted: https://status.example.net/incidents/4411",
        "u: ok thanks",
    )
    for entry in saved(extract(messages)):
        assert "giving up" not in text_of(entry)
        assert text_of(entry).strip() != "https://status.example.net/incidents/4411"
        assert not text_of(entry).startswith("2026-03-02")


def test_unfenced_traceback_never_becomes_a_note_zh() -> None:
    messages = chat(
        "u: 导入脚本又挂了",
        "u: Traceback (most recent call last):\n"
        '  File "/home/xu/jobs/import_csv.py", line 52, in import_rows\n'
        "sqlite3.OperationalError: database is locked",
        "a: 收到：`import_csv.py` 第 52 行 `database is locked`。",
        "u: 先这样吧 明天再看",
    )
    for entry in saved(extract(messages)):
        assert "traceback" not in text_of(entry)
        assert "operationalerror" not in text_of(entry)


def test_a_url_supports_a_note_it_does_not_seed() -> None:
    messages = chat(
        "u: for the notes: the failover runbook lives in the wiki and every on-call reads it before a shift",
        "a: Noted: every on-call reads the failover runbook in the wiki before a shift.",
        "u: https://wiki.example.net/runbooks/failover",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "runbook" in text_of(notes[0])


def test_output_after_an_error_lead_in_is_evidence_en() -> None:
    messages = chat(
        "u: the deploy job fails, I get:\n```\nfatal: refusing to merge unrelated histories\n```",
        "a: Got it: `refusing to merge unrelated histories`.",
        "u: ok thx",
    )
    for entry in saved(extract(messages)):
        assert "i get" not in text_of(entry)


def test_temporary_workaround_is_not_a_note_zh() -> None:
    messages = chat(
        "u: 缓存满了 先救火",
        "a: 临时：在 `cache-02` 上 `CONFIG SET maxmemory-policy allkeys-lru`，立即生效。",
        "u: 好 先这样",
    )
    assert saved(extract(messages)) == []
