"""SIGKILL at every fsync and rename of a write, an undo and an apply (issue 10 items 5, 6).

The storage layer's test hook (``SAVENOW_TEST_KILL_AT=N``) kills the process at its N-th
durability point. After each kill: the memory file is exactly the before- or the after-state,
no temp file is left under ``memory/``, undo removes the write that is really in the file (and
then the one before it), and the next write removes leftover temp files.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from savenow.cli import main
from savenow.storage.faults import KILL_ENV, TRACE_ENV
from tests.reliability.support import run_cli

NOW = {"SAVENOW_NOW": "2026-11-28T10:00:00+08:00", "SAVENOW_TIMEZONE": "Asia/Shanghai"}
ORIGINAL = "# 2026-11-28\n\n## 09:00 - Old\n- old note\n"
WRITE_A = [{"title": "First note", "bullets": ["alpha fact 1"]}]
WRITE_B = [
    {"title": "Second note", "bullets": ["beta fact 2"]},
    {"title": "x", "bullets": ["merged gamma 3"], "action": "merge", "merge_target_title": "Old"},
]


Here = Callable[..., tuple[int, str]]


@pytest.fixture
def here(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Here:
    """The CLI in this process, in ``workspace`` (fast: only the killed runs need a process of their own)."""

    def run(workspace: Path, *argv: str) -> tuple[int, str]:
        with monkeypatch.context() as patch:
            patch.chdir(workspace)
            for name, value in NOW.items():
                patch.setenv(name, value)
            patch.delenv("SAVENOW_WORKSPACE", raising=False)
            status = main(list(argv))
        return status, capsys.readouterr().err

    return run


def merge_argv(entries: str) -> list[str]:
    return ["merge-daily-memory", "--entries-file", entries, "--memory-path", "memory/2026-11-28.md"]


def after_write_a(workspace: Path) -> Path:
    """A workspace after write A: the base of every kill (built in place: the journal holds absolute paths)."""
    (workspace / "memory").mkdir(parents=True)
    (workspace / "memory" / "2026-11-28.md").write_text(ORIGINAL)
    (workspace / "a.json").write_text(json.dumps(WRITE_A))
    (workspace / "b.json").write_text(json.dumps(WRITE_B))
    assert run_cli(*merge_argv("a.json"), cwd=workspace, env=NOW).returncode == 0
    return workspace


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The file after A and after B, and the durability points of a write and of an undo."""
    reference = after_write_a(tmp_path_factory.mktemp("reference"))
    after_a = (reference / "memory" / "2026-11-28.md").read_text()
    trace = reference / "points.txt"
    assert run_cli(*merge_argv("b.json"), cwd=reference, env={**NOW, TRACE_ENV: str(trace)}).returncode == 0
    after_b = (reference / "memory" / "2026-11-28.md").read_text()
    undo_trace = reference / "undo-points.txt"
    assert run_cli("undo", cwd=reference, env={**NOW, TRACE_ENV: str(undo_trace)}).returncode == 0
    return {
        "after_a": after_a,
        "after_b": after_b,
        "write_points": trace.read_text().split(),
        "undo_points": undo_trace.read_text().split(),
    }


def fresh(states: dict[str, object], tmp_path: Path) -> Path:
    return after_write_a(tmp_path / "ws")


def memory_text(workspace: Path) -> str:
    return (workspace / "memory" / "2026-11-28.md").read_text()


def assert_no_temp_under_memory(workspace: Path) -> None:
    assert sorted(p.name for p in (workspace / "memory").iterdir()) == ["2026-11-28.md"]


def test_a_write_has_the_expected_durability_points(states: dict[str, object]) -> None:
    points = states["write_points"]
    assert points == ["fsync:journal", "fsync:temp", "rename", "fsync:dir", "fsync:journal"]


@pytest.mark.parametrize("kill_at", range(1, 6))
def test_kill_during_a_write_then_undo_twice(
    states: dict[str, object], tmp_path: Path, kill_at: int, here: Here
) -> None:
    workspace = fresh(states, tmp_path)
    killed = run_cli(*merge_argv("b.json"), cwd=workspace, env={**NOW, KILL_ENV: str(kill_at)})
    assert killed.returncode == -signal.SIGKILL
    text = memory_text(workspace)
    assert text in (states["after_a"], states["after_b"])
    assert_no_temp_under_memory(workspace)
    landed = text == states["after_b"]

    status, err = here(workspace, "undo")
    assert status == 0, err
    assert memory_text(workspace) == (states["after_a"] if landed else ORIGINAL)
    status, err = here(workspace, "undo")
    if landed:
        assert status == 0, err
    else:
        assert status == 2 and len(err.splitlines()) == 1
    assert memory_text(workspace) == ORIGINAL


@pytest.mark.parametrize("kill_at", range(1, 6))
def test_kill_during_an_undo(states: dict[str, object], tmp_path: Path, kill_at: int, here: Here) -> None:
    workspace = fresh(states, tmp_path)
    assert here(workspace, *merge_argv("b.json"))[0] == 0
    killed = run_cli("undo", cwd=workspace, env={**NOW, KILL_ENV: str(kill_at)})
    assert killed.returncode == -signal.SIGKILL
    text = memory_text(workspace)
    assert text in (states["after_a"], states["after_b"])
    assert_no_temp_under_memory(workspace)
    status, err = here(workspace, "undo")
    assert status == 0, err
    # an undo that landed is not repeated: the next one takes out write A
    assert memory_text(workspace) == (ORIGINAL if text == states["after_a"] else states["after_a"])


def test_leftover_temp_files_are_removed_on_the_next_write(
    states: dict[str, object], tmp_path: Path, here: Here
) -> None:
    workspace = fresh(states, tmp_path)
    killed = run_cli(*merge_argv("b.json"), cwd=workspace, env={**NOW, KILL_ENV: "2"})  # at the temp fsync
    assert killed.returncode == -signal.SIGKILL
    temp_dir = workspace / ".savenow" / "tmp"
    assert len(list(temp_dir.iterdir())) == 1
    assert all(".md" not in p.name for p in temp_dir.iterdir())  # no indexer takes it for a note
    legacy = workspace / "memory" / ".2026-11-28.md.abc123.savenow-tmp"
    legacy.write_text("left by an older savenow")
    assert here(workspace, *merge_argv("b.json"))[0] == 0
    assert list(temp_dir.iterdir()) == []
    assert_no_temp_under_memory(workspace)
    assert memory_text(workspace) == states["after_b"]


def test_kill_anywhere_in_apply_then_apply_again_writes_once(
    states: dict[str, object], tmp_path: Path, here: Here
) -> None:
    workspace = fresh(states, tmp_path)
    pending = ["--pending-file", "p.json"]
    preview = ["preview-diff", "--entries-file", "b.json", "--memory-path", "memory/2026-11-28.md", *pending]
    kill_at = 1
    while True:
        (workspace / "p.json").unlink(missing_ok=True)
        assert here(workspace, *preview)[0] == 0
        killed = run_cli("apply", *pending, cwd=workspace, env={**NOW, KILL_ENV: str(kill_at)})
        if killed.returncode == 0:
            break  # past the last point
        assert killed.returncode == -signal.SIGKILL
        status, err = here(workspace, "apply", *pending)
        assert status == 0, err
        text = memory_text(workspace)
        assert text.count("- beta fact 2\n") == 1 and text.count("- merged gamma 3\n") == 1
        assert_no_temp_under_memory(workspace)
        while "beta fact 2" in memory_text(workspace):  # back to after A for the next kill point
            assert here(workspace, "undo")[0] == 0
        assert memory_text(workspace) == states["after_a"]
        kill_at += 1
    assert kill_at > 5  # the memory write's five points and the pending file's own


def test_a_torn_journal_tail_never_swallows_the_next_record(
    states: dict[str, object], tmp_path: Path, here: Here
) -> None:
    workspace = fresh(states, tmp_path)
    with (workspace / ".savenow" / "journal.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"type": "intent", "of": "write", "id": "torn", "memoryPa')  # a full disk cut it here
    assert here(workspace, *merge_argv("b.json"))[0] == 0
    assert memory_text(workspace) == states["after_b"]
    assert here(workspace, "undo")[0] == 0
    assert here(workspace, "undo")[0] == 0
    assert memory_text(workspace) == ORIGINAL


def test_any_feature_gets_a_logged_undoable_write(tmp_path: Path) -> None:
    from savenow.storage.journal import undo_last, write_logged

    target = tmp_path / "memory" / "objects" / "person" / "alice.md"
    target.parent.mkdir(parents=True)
    target.write_text("# Alice\n- likes tea\n- lives in Lyon\n")
    record = write_logged(
        tmp_path,
        target,
        lambda text: (text or "").replace("- lives in Lyon\n", "- lives in Paris\n- has a cat\n"),
        kind="objects",
        time="2026-11-28T10:00:00+08:00",
        titles=["Alice"],
    )
    assert record is not None and record.kind == "objects"
    assert write_logged(tmp_path, target, lambda text: text or "", kind="objects", time="t") is None
    assert target.read_text() == "# Alice\n- likes tea\n- lives in Paris\n- has a cat\n"
    undo_last(tmp_path)
    assert target.read_text() == "# Alice\n- likes tea\n- lives in Lyon\n"
