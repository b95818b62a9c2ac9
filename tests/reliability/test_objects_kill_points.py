"""SIGKILL at every durability point of an objects change and of its undo (DESIGN §8, §14).

An objects change is one group of the shared change log: copies of the bytes before, every intent,
each file's atomic write or delete, every commit. After a kill anywhere: each file is exactly as it
was before or after, the next objects command settles the interrupted group by the files, and
``objects undo`` puts back exactly the state before the change (or, when nothing of it landed,
takes back the change before it, as it would have anyway).
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from savenow.cli import main
from savenow.storage.faults import KILL_ENV
from savenow.storage.journal import read_records
from tests.objects.test_objects_journal import WANG, state
from tests.reliability.support import run_cli

ENV = {"SAVENOW_NOW": "2026-11-29T21:00:00+08:00", "SAVENOW_TIMEZONE": "Asia/Shanghai"}
FORGET_POINTS = [
    *["fsync:temp", "rename", "fsync:dir"] * 3,  # the empty tombstone list, then the copies of the bytes before
    "fsync:journal",  # every intent
    "fsync:temp", "rename", "fsync:dir",  # the trash copy
    "unlink",  # the object file
    "fsync:temp", "rename", "fsync:dir",  # the tombstones
    "fsync:journal",  # every commit
]  # fmt: skip
UNDO_POINTS = ["fsync:journal", *["fsync:temp", "rename", "fsync:dir"] * 2, "unlink", "fsync:journal"]

Cli = Callable[..., tuple[int, str]]


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, value in {
        **ENV,
        "SAVENOW_WORKSPACE": str(tmp_path / "ws"),
        "HOME": str(tmp_path / "home"),
    }.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    (tmp_path / "wang.json").write_text(json.dumps(WANG, ensure_ascii=False), encoding="utf-8")
    return tmp_path / "ws"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    def run(*argv: str) -> tuple[int, str]:
        status = main(list(argv))
        return status, capsys.readouterr().err

    return run


@pytest.fixture
def forgotten(workspace: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """The files after the forget, from a workspace of its own (same clock: same ids, same bytes)."""
    reference = workspace.parent / "reference"
    (reference / "memory").mkdir(parents=True)
    with monkeypatch.context() as patch:
        patch.setenv("SAVENOW_WORKSPACE", str(reference))
        assert cli("objects", "upsert", "--json-file", str(workspace.parent / "wang.json"))[0] == 0
        assert cli("objects", "forget", "张姐姐")[0] == 0
    return state(reference)


def killed(workspace: Path, kill_at: int, *argv: str) -> None:
    env = {
        **ENV,
        "SAVENOW_WORKSPACE": str(workspace),
        "HOME": str(workspace.parent / "home"),
        KILL_ENV: str(kill_at),
    }
    assert run_cli(*argv, cwd=workspace, env=env).returncode == -signal.SIGKILL


def each_file_is_one_of(now: dict[str, bytes], before: dict[str, bytes], after: dict[str, bytes]) -> None:
    for rel in {*now, *before, *after}:
        assert now.get(rel) in (before.get(rel), after.get(rel)), rel


def no_temp_files(workspace: Path) -> None:
    assert [p for p in (workspace / "memory").rglob("*") if ".savenow-tmp" in p.name] == []


def test_a_forget_and_its_undo_have_the_expected_durability_points(workspace: Path, cli: Cli) -> None:
    from savenow.storage.faults import TRACE_ENV

    assert cli("objects", "upsert", "--json-file", str(workspace.parent / "wang.json"))[0] == 0
    env = {**ENV, "SAVENOW_WORKSPACE": str(workspace), "HOME": str(workspace.parent / "home")}
    for argv, points, expected in ((("objects", "forget", "张姐姐"), "f.txt", FORGET_POINTS),
                                   (("objects", "undo"), "u.txt", UNDO_POINTS)):  # fmt: skip
        trace = workspace.parent / points
        assert run_cli(*argv, cwd=workspace, env={**env, TRACE_ENV: str(trace)}).returncode == 0
        assert trace.read_text().split() == expected


@pytest.mark.parametrize("kill_at", range(1, len(FORGET_POINTS) + 1))
def test_kill_during_a_forget_then_undo(
    workspace: Path, cli: Cli, forgotten: dict[str, bytes], kill_at: int
) -> None:
    assert cli("objects", "upsert", "--json-file", str(workspace.parent / "wang.json"))[0] == 0
    before = state(workspace)
    killed(workspace, kill_at, "objects", "forget", "张姐姐")
    now = state(workspace)
    each_file_is_one_of(now, before, forgotten)
    no_temp_files(workspace)
    status, err = cli("objects", "undo")
    assert status == 0, err
    assert all(r["state"] != "intent" for r in read_records(workspace))  # settled by the files
    if now == before:  # nothing of the forget landed: undo took back the upsert before it
        assert state(workspace) == {}
    else:
        assert state(workspace) == before


@pytest.mark.parametrize("kill_at", range(1, len(UNDO_POINTS) + 1))
def test_kill_during_an_objects_undo(
    workspace: Path, cli: Cli, forgotten: dict[str, bytes], kill_at: int
) -> None:
    assert cli("objects", "upsert", "--json-file", str(workspace.parent / "wang.json"))[0] == 0
    before = state(workspace)
    assert cli("objects", "forget", "张姐姐")[0] == 0
    assert state(workspace) == forgotten
    killed(workspace, kill_at, "objects", "undo")
    each_file_is_one_of(state(workspace), forgotten, before)
    no_temp_files(workspace)
    status, err = cli("objects", "undo")  # finishes what the kill left, or says it was all done
    assert status == 0 or "Nothing to undo" in err, err
    assert state(workspace) == before
    assert all(r["state"] != "intent" for r in read_records(workspace))


LEGACY_UNDO_POINTS = ["fsync:journal", *["fsync:temp", "rename", "fsync:dir"] * 2, "unlink", "fsync:journal"]


def legacy_forget(workspace: Path) -> dict[str, bytes]:
    """A forget the previous version recorded in its own log; returns the state before it."""
    from tests.objects.conftest import Install
    from tests.objects.test_objects_journal import V1, as_before

    rel = "memory/objects/relationship/张姐姐.md"
    objects = workspace / ".savenow" / "objects"
    (workspace / rel).parent.mkdir(parents=True)
    (workspace / rel).write_text(V1, encoding="utf-8")
    before = state(workspace)
    (objects / "trash").mkdir(parents=True)
    (objects / "trash" / "relationship-0a1b2c3d.20261128T100000.md").write_text(V1, encoding="utf-8")
    stone = {"type": "relationship", "hashes": ["abc"], "forgotten_at": "2026-11-28T10:00:00+08:00"}
    (objects / "tombstones.json").write_text(json.dumps({"tombstones": [stone]}), encoding="utf-8")
    as_before(Install(root=workspace.parent, workspace=workspace), rel, V1, None, op="forget",
              tombstones_added=[stone], trash=["trash/relationship-0a1b2c3d.20261128T100000.md"])  # fmt: skip
    return before


@pytest.mark.parametrize("kill_at", range(1, len(LEGACY_UNDO_POINTS) + 1))
def test_kill_during_the_undo_of_a_change_the_previous_version_logged(
    workspace: Path, cli: Cli, kill_at: int
) -> None:
    before = legacy_forget(workspace)
    forgotten = state(workspace)
    killed(workspace, kill_at, "objects", "undo")
    each_file_is_one_of(state(workspace), forgotten, before)
    status, err = cli("objects", "undo")  # finishes what the kill left, or says it was all done
    assert status == 0 or "Nothing to undo" in err, err
    assert state(workspace) == before
    assert cli("objects", "undo")[0] == 2  # and it is undone once
