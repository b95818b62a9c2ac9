"""Targets that must never be deleted, overwritten or escaped to (issue 10 items 1, 4, 8)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from savenow.cli import main
from tests.reliability.support import assert_refused, hashes, refuse_in_process
from tests.service.conftest import Install, Runner

MEMORY = "memory/2026-11-28.md"
ENTRIES = "temp/savenow-entries.json"
PENDING = "temp/savenow-pending.json"


def preview(*extra: str) -> list[str]:
    return ["preview-diff", "--entries-file", ENTRIES, "--memory-path", MEMORY, *extra]


def merge(memory: str) -> list[str]:
    return ["merge-daily-memory", "--entries-file", ENTRIES, "--memory-path", memory]


@pytest.mark.parametrize("victim", [MEMORY, ENTRIES, "MEMORY.md", "notes.txt"])
def test_cancel_never_deletes_what_is_not_a_pending(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], victim: str
) -> None:
    if not (skill_ws / victim).exists():
        (skill_ws / victim).write_text("# keep me\n")
    refuse_in_process(capsys, skill_ws, "cancel", "--pending-file", victim)
    assert (skill_ws / victim).exists()


@pytest.mark.parametrize("victim", [MEMORY, ENTRIES, "MEMORY.md", "package.json"])
def test_preview_never_overwrites_what_is_not_a_pending(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], victim: str
) -> None:
    if not (skill_ws / victim).exists():
        (skill_ws / victim).write_text('{"name": "keep me"}\n')
    refuse_in_process(capsys, skill_ws, *preview("--pending-file", victim))


def test_a_real_pending_is_replaced_and_cancelled(skill_ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(preview("--pending-file", PENDING)) == 0
    assert main(preview("--pending-file", PENDING)) == 0  # a newer preview replaces the older one
    assert main(["cancel", "--pending-file", PENDING]) == 0
    assert not (skill_ws / PENDING).exists()


@pytest.mark.parametrize(
    "target",
    [
        ".ssh/authorized_keys",
        "../outside/2026-11-28.md",
        "/etc/savenow-probe.md",
        "MEMORY.md",
        "memory/notes.txt",
        ".git/2026-11-28.md",
        ".savenow/2026-11-28.md",
    ],
)
def test_apply_rechecks_the_pending_target(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    assert main(preview("--pending-file", PENDING)) == 0
    capsys.readouterr()
    data = json.loads((skill_ws / PENDING).read_text())
    data["memoryPath"] = str((skill_ws / target).resolve()) if not target.startswith("/") else target
    (skill_ws / PENDING).write_text(json.dumps(data))
    (skill_ws / ".ssh").mkdir(exist_ok=True)
    (skill_ws / ".ssh" / "authorized_keys").write_text("ssh-ed25519 AAAA key\n")
    refuse_in_process(capsys, skill_ws, "apply", "--pending-file", PENDING)
    assert not Path("/etc/savenow-probe.md").exists()


@pytest.mark.parametrize("kind", ["to MEMORY.md", "outside", "dangling", "to another day"])
def test_a_symlinked_memory_file_is_never_replaced(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory, kind: str
) -> None:
    link = skill_ws / "memory" / "2026-11-29.md"
    outside = tmp_path_factory.mktemp("outside") / "x.md"
    outside.write_text("# outside\n")
    (skill_ws / "MEMORY.md").write_text("# long-term\n")
    target = {
        "to MEMORY.md": skill_ws / "MEMORY.md",
        "outside": outside,
        "dangling": skill_ws / "memory" / "gone.md",
        "to another day": skill_ws / MEMORY,
    }[kind]
    link.symlink_to(target)
    before_outside = outside.read_bytes()
    refuse_in_process(capsys, skill_ws, *merge(str(link)))
    assert link.is_symlink() and outside.read_bytes() == before_outside


def test_a_read_only_memory_file_is_refused(skill_ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (skill_ws / MEMORY).chmod(0o444)
    refuse_in_process(capsys, skill_ws, *merge(MEMORY), contains="read-only")
    assert (skill_ws / MEMORY).stat().st_mode & 0o777 == 0o444


@pytest.mark.parametrize("name", ["memory/2026-11-28.txt", "memory/2026-11-28", "memory/notes.json"])
def test_the_drop_ins_refuse_a_memory_path_that_is_not_markdown(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    refuse_in_process(capsys, skill_ws, *merge(name), contains=".md")
    refuse_in_process(
        capsys, skill_ws, "preview-diff", "--entries-file", ENTRIES, "--memory-path", name, contains=".md"
    )


def test_a_memory_path_outside_the_folder_is_refused_unless_it_is_the_workspace(
    skill_ws: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    other = tmp_path_factory.mktemp("other-ws")
    (other / "memory").mkdir()
    target = str(other / "memory" / "2026-11-28.md")
    refuse_in_process(capsys, skill_ws, *merge(target), contains="outside")
    monkeypatch.setenv("SAVENOW_WORKSPACE", str(other))
    assert main(merge(target)) == 0


def test_a_transcript_symlinked_outside_the_store_is_not_read(
    install: Install, savenow: Runner, tmp_path_factory: pytest.TempPathFactory
) -> None:
    secret = tmp_path_factory.mktemp("secret") / "elsewhere.jsonl"
    store = json.loads((install.sessions / "sessions.json").read_text())
    key, entry = next(iter(store.items()))
    transcript = next(p for p in install.sessions.glob("*.jsonl") if p.name.startswith(entry["sessionId"]))
    secret.write_bytes(transcript.read_bytes())
    transcript.unlink()
    os.symlink(secret, transcript)
    before = hashes(install.root)
    status, _, err = savenow("preview", key)
    assert_refused(status, err, contains="symbolic link")
    assert hashes(install.root) == before


def test_the_chat_commands_refuse_a_pending_aimed_elsewhere(install: Install, savenow: Runner) -> None:
    status, _, err = savenow("preview", "--chat-id", "-1001234567890", "--thread-id", "7")
    assert status == 0, err
    pending_file = next((install.workspace / ".savenow" / "pending").glob("*.json"))
    data = json.loads(pending_file.read_text())
    data["memoryPath"] = str(install.workspace / ".ssh" / "authorized_keys")
    pending_file.write_text(json.dumps(data))
    before = hashes(install.root)
    status, _, err = savenow("apply", "--chat-id", "-1001234567890", "--thread-id", "7")
    assert_refused(status, err, contains="Refusing to write")
    assert hashes(install.root) == before


def test_chat_apply_after_undo_says_what_happened(install: Install, savenow: Runner) -> None:
    scope = ("--chat-id", "-1001234567890", "--thread-id", "7")
    assert savenow("preview", *scope)[0] == 0
    status, out, _ = savenow("apply", *scope)
    assert status == 0 and out.startswith("Wrote ")
    status, out, _ = savenow("apply", *scope)
    assert status == 0 and out.startswith("Already applied at ")
    assert savenow("undo")[0] == 0
    before = hashes(install.root)
    status, out, _ = savenow("apply", *scope)
    assert status == 0 and "`savenow undo` took that write out since; nothing written" in out
    assert hashes(install.root) == before
