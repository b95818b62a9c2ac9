"""The chat-equivalent CLI commands end to end (DESIGN §2, §3, §10) on an OpenClaw-layout store."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.service.conftest import GROUP, TODAY, Install, Runner

TOPIC = ("--chat-id", GROUP, "--thread-id", "7")
OTHER_TOPIC = ("--chat-id", GROUP, "--thread-id", "8")


def _preview_json(savenow: Runner, *extra: str) -> dict:
    status, out, err = savenow("preview", *TOPIC, "--json", *extra)
    assert status == 0, err
    return json.loads(out)


def test_preview_writes_no_memory_then_apply_writes(install: Install, savenow: Runner) -> None:
    data = _preview_json(savenow)
    assert data["session_key"] == f"agent:main:telegram:group:{GROUP}:topic:7"
    assert data["written"] is False
    assert data["memory_path"].endswith(f"memory/{TODAY}.md")
    assert data["entries"] and all(e["action"] == "add" for e in data["entries"])
    assert data["preview"].startswith(f"### /savenow preview — memory/{TODAY}.md")
    assert "No write performed." in data["preview"]
    assert not install.memory_file.exists()

    status, out, err = savenow("apply", *TOPIC)
    assert status == 0, err
    assert "Wrote" in out
    text = install.memory_file.read_text(encoding="utf-8")
    assert text.startswith(f"# {TODAY}\n\n## 21:00 - ")
    assert "gateway.cmd" in text
    assert "哈哈" not in text and "谢谢" not in text
    assert not (install.workspace / "MEMORY.md").exists()


def test_second_apply_writes_nothing(install: Install, savenow: Runner) -> None:
    _preview_json(savenow)
    assert savenow("apply", *TOPIC)[0] == 0
    once = install.memory_file.read_bytes()
    status, out, _ = savenow("apply", *TOPIC, "--json")
    assert status == 0
    assert json.loads(out)["already_applied"] is True
    assert install.memory_file.read_bytes() == once


def test_preview_then_cancel(install: Install, savenow: Runner) -> None:
    _preview_json(savenow)
    status, out, _ = savenow("cancel", *TOPIC)
    assert status == 0 and "Nothing written" in out
    status, _, err = savenow("apply", *TOPIC)
    assert status == 2
    assert err.strip() == "savenow: No pending preview, run /savenow first."
    assert not install.memory_file.exists()


def test_expired_preview_is_refused(
    install: Install, savenow: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    _preview_json(savenow)
    monkeypatch.setenv("SAVENOW_NOW", "2026-11-29T21:45:00+08:00")
    before = install.files()
    status, _, err = savenow("apply", *TOPIC)
    assert status == 2
    assert "Preview expired (15 min ago), rerun /savenow." in err
    assert install.files() == before


def test_preview_before_midnight_lands_in_that_days_file(
    install: Install, savenow: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAVENOW_NOW", "2026-11-29T23:55:00+08:00")
    _preview_json(savenow)
    monkeypatch.setenv("SAVENOW_NOW", "2026-11-30T00:05:00+08:00")
    assert savenow("apply", *TOPIC)[0] == 0
    assert install.memory_file.exists()
    assert not (install.workspace / "memory" / "2026-11-30.md").exists()


def test_apply_from_another_topic_is_refused(install: Install, savenow: Runner) -> None:
    _preview_json(savenow)
    status, _, err = savenow("apply", *OTHER_TOPIC)
    assert status == 2 and "No pending preview" in err
    assert not install.memory_file.exists()
    assert savenow("apply", *TOPIC)[0] == 0  # the right topic still can


def test_newer_preview_replaces_older(install: Install, savenow: Runner) -> None:
    _preview_json(savenow)
    _preview_json(savenow, "--date", "2026-11-28")
    assert savenow("apply", *TOPIC)[0] == 0
    assert (install.workspace / "memory" / "2026-11-28.md").exists()
    assert not install.memory_file.exists()


def test_zero_candidates_store_no_pending(install: Install, savenow: Runner) -> None:
    status, out, err = savenow("preview", *OTHER_TOPIC)
    assert status == 0, err
    assert "**0 candidates** — nothing durable in this session. No write performed." in out
    assert "Buttons expire" not in out
    pending_dir = install.workspace / ".savenow" / "pending"
    assert not pending_dir.exists() or not any(pending_dir.iterdir())
    assert savenow("apply", *OTHER_TOPIC)[0] == 2


def test_auto_writes_directly(install: Install, savenow: Runner) -> None:
    status, out, err = savenow("auto", *TOPIC, "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["written"] is True
    assert "gateway.cmd" in install.memory_file.read_text(encoding="utf-8")
    # Running auto again finds everything already saved: nothing new is written.
    first = install.memory_file.read_bytes()
    status, out, _ = savenow("auto", *TOPIC, "--json")
    assert status == 0 and json.loads(out)["written"] is False
    assert install.memory_file.read_bytes() == first


def test_auto_with_explicit_key(install: Install, savenow: Runner) -> None:
    status, out, err = savenow("auto", f"agent:main:telegram:group:{GROUP}:topic:9", "--json")
    assert status == 0, err
    assert json.loads(out)["session_key"].endswith(":topic:9")


def test_list_shows_candidates_newest_first(install: Install, savenow: Runner) -> None:
    status, out, err = savenow("list", *TOPIC, "--json")
    assert status == 0, err
    keys = [s["key"] for s in json.loads(out)["sessions"]]
    assert keys == [
        f"agent:main:telegram:group:{GROUP}:topic:7",
        f"agent:main:telegram:group:{GROUP}:topic:7:old",
    ]
    _, out, _ = savenow("list", *TOPIC)
    assert out.splitlines()[0].startswith("* agent:main:telegram:group:")


def test_explicit_key_preview(install: Install, savenow: Runner) -> None:
    status, out, err = savenow("preview", f"agent:main:telegram:group:{GROUP}:topic:7:old", *TOPIC)
    assert status == 0, err
    assert "**0 candidates**" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("preview", "agent:main:nope", *TOPIC), "No session has the key 'agent:main:nope'"),
        (("preview", "../../etc/passwd", *TOPIC), "session key"),
        (("preview", "--chat-id", GROUP), "not in a forum topic"),
        (("preview", "--chat-id", GROUP, "--thread-id", "99"), "/savenow list"),
        (("preview", *TOPIC, "--date", "tomorrow"), "--date must be YYYY-MM-DD"),
        (("preview", "--chat-id", "abc"), "--chat-id must be a Telegram numeric id"),
        (("apply", *TOPIC), "No pending preview, run /savenow first."),
    ],
)
def test_refusals_exit_2_with_one_line_and_change_nothing(
    install: Install, savenow: Runner, argv: tuple[str, ...], message: str
) -> None:
    before = install.files()
    status, _, err = savenow(*argv)
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert install.files() == before


def test_direct_chat_resolves_its_direct_session(install: Install, savenow: Runner) -> None:
    status, out, err = savenow("preview", "--chat-id", "555", "--json")
    assert status == 0, err
    assert json.loads(out)["session_key"] == "agent:main:telegram:direct:555"


def test_bad_config_value_exits_2(install: Install, savenow: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAVENOW_TRANSCRIPT_LIMIT", "500")
    status, _, err = savenow("preview", *TOPIC)
    assert status == 2
    assert "transcript_limit (environment variable SAVENOW_TRANSCRIPT_LIMIT)" in err


def test_undo_removes_the_last_write(install: Install, savenow: Runner) -> None:
    install.memory_file.write_text(f"# {TODAY}\n\n## 08:00 - Existing\n- kept\n", encoding="utf-8")
    original = install.memory_file.read_bytes()
    assert savenow("auto", *TOPIC)[0] == 0
    assert install.memory_file.read_bytes() != original
    status, _, err = savenow("undo")
    assert status == 0, err
    assert install.memory_file.read_bytes() == original
    status, _, err = savenow("undo")
    assert status == 2


def test_real_process_exit_codes(install: Install) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "savenow.cli", "preview", "../x", *TOPIC],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr.startswith("savenow: ") and "Traceback" not in run.stderr


def test_undo_after_a_drop_in_merge_in_the_current_directory(
    install: Install,
    savenow: Runner,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    skill_workspace = tmp_path_factory.mktemp("skill-ws")
    monkeypatch.chdir(skill_workspace)
    (skill_workspace / "entries.json").write_text(
        json.dumps([{"title": "Nginx 上传大小限制", "bullets": ["client_max_body_size 200m in files.conf"]}]),
        encoding="utf-8",
    )
    assert savenow("merge-daily-memory", "--entries-file", "entries.json")[0] == 0
    written = skill_workspace / "memory" / f"{TODAY}.md"
    assert "200m" in written.read_text(encoding="utf-8")
    status, _, err = savenow("undo")
    assert status == 0, err
    assert not written.exists()  # the write created the file, so undo removes it


def test_malformed_transcript_lines_are_skipped_and_counted(install: Install, savenow: Runner) -> None:
    status, out, err = savenow("preview", "--chat-id", GROUP, "--thread-id", "10")
    assert status == 0, err
    assert "_2 malformed transcript line(s) were skipped._" in out
    assert "**0 candidates**" not in out


def test_a_missing_session_store_says_where_it_looked(install: Install, savenow: Runner) -> None:
    status, _, err = savenow("preview", *TOPIC, "--sessions-dir", str(install.root / "nope"))
    assert status == 2
    assert f"No session store found in {install.root / 'nope'} or " in err
    assert "--sessions-dir" in err


def test_cancel_after_apply_is_refused_and_changes_nothing(install: Install, savenow: Runner) -> None:
    _preview_json(savenow)
    assert savenow("apply", *TOPIC)[0] == 0
    before = install.files()
    status, _, err = savenow("cancel", *TOPIC)
    assert status == 2 and "already applied" in err
    assert install.files() == before
