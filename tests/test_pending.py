"""Pending previews: JSON, TTL, scope, idempotent apply, re-apply after the file changed."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from savenow.applying import apply_from_store, apply_pending, apply_pending_file
from savenow.errors import BadInputError, NoPendingError, PendingExpiredError, ScopeMismatchError
from savenow.fileio import sha256_text
from savenow.pending import (
    PendingPreview,
    PendingStore,
    check_pending,
    delete_pending,
    read_pending,
    write_pending,
)

NOW = datetime(2026, 5, 15, 23, 50, tzinfo=timezone(timedelta(hours=8)))
MEMORY = "# 2026-05-15\n\n## 10:00 - Target\n- a\n"


def make_pending(workspace: Path, **overrides: object) -> PendingPreview:
    memory_path = workspace / "memory" / "2026-05-15.md"
    values: dict[str, object] = {
        "sessionKey": "agent:main:telegram:group:-100:topic:42",
        "messageThreadId": "42",
        "generatedAt": NOW.isoformat(),
        "expiresAt": (NOW + timedelta(minutes=30)).isoformat(),
        "memoryPath": str(memory_path),
        "entries": [
            {"title": "New", "bullets": ["n"], "action": "add"},
            {"title": "More", "bullets": ["b"], "action": "merge", "merge_target_title": "Target"},
        ],
        "chatId": "-100",
        "date": "2026-05-15",
        "baseSha256": sha256_text(memory_path.read_text() if memory_path.exists() else None),
    }
    values.update(overrides)
    return PendingPreview(**values)  # type: ignore[arg-type]


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-05-15.md").write_text(MEMORY)
    return tmp_path


def test_json_round_trip_and_short_id(workspace: Path) -> None:
    pending = make_pending(workspace)
    again = PendingPreview.from_json(json.loads(json.dumps(pending.to_json())))
    assert again == pending
    assert len(pending.id) <= 16 and pending.id.replace("-", "").replace("_", "").isalnum()
    data = pending.to_json()
    for key in (
        "version",
        "sessionKey",
        "messageThreadId",
        "generatedAt",
        "expiresAt",
        "memoryPath",
        "entriesFile",
    ):
        assert key in data
    assert data["version"] == 1


def test_node_style_pending_is_accepted(workspace: Path) -> None:
    node = {
        "version": 1,
        "sessionKey": "",
        "messageThreadId": "",
        "generatedAt": "2026-05-15T15:50:00.000Z",
        "expiresAt": "2026-05-15T16:20:00.000Z",
        "memoryPath": str(workspace / "memory" / "2026-05-15.md"),
        "entriesFile": "/x/temp/savenow-entries.json",
        "entries": [{"title": "Bare", "bullets": ["b1"]}],
    }
    pending = PendingPreview.from_json(node)
    assert pending.sessionKey is None and not pending.baseKnown and pending.id
    assert "baseSha256" not in pending.to_json()


@pytest.mark.parametrize(
    "broken",
    [
        [],
        {"memoryPath": "x"},
        {"memoryPath": "x", "entries": {}, "generatedAt": "t", "expiresAt": "t"},
        {"memoryPath": "x", "entries": [], "generatedAt": "yesterday", "expiresAt": "2026-05-15T00:00:00"},
        {
            "memoryPath": "x",
            "entries": [1],
            "generatedAt": "2026-05-15T00:00:00",
            "expiresAt": "2026-05-15T00:00:00",
        },
    ],
)
def test_malformed_pending_is_bad_input(broken: object) -> None:
    with pytest.raises(BadInputError):
        PendingPreview.from_json(broken)


def test_check_missing_expired_and_scope(workspace: Path) -> None:
    with pytest.raises(NoPendingError, match=r"^No pending preview, run /savenow first\.$"):
        check_pending(None, now=NOW)
    pending = make_pending(workspace)
    assert check_pending(pending, now=NOW + timedelta(minutes=30), thread_id=42, chat_id=-100) is pending
    with pytest.raises(PendingExpiredError, match=r"^Preview expired \(5 min ago\), rerun /savenow\.$"):
        check_pending(pending, now=NOW + timedelta(minutes=35))
    with pytest.raises(PendingExpiredError, match=r"\(1 min ago\)"):
        check_pending(pending, now=NOW + timedelta(minutes=30, seconds=1))
    message = r"^Pending preview is from a different topic\. Rerun /savenow here\.$"
    with pytest.raises(ScopeMismatchError, match=message):
        check_pending(pending, now=NOW, thread_id="43")
    with pytest.raises(ScopeMismatchError, match=message):
        check_pending(pending, now=NOW, session_key="agent:main:telegram:group:-100:topic:43")
    with pytest.raises(ScopeMismatchError):
        check_pending(pending, now=NOW, chat_id="-200")


def test_apply_is_idempotent(workspace: Path) -> None:
    pending = make_pending(workspace)
    outcome = apply_pending(pending, now=NOW, workspace=workspace)
    assert outcome.written and outcome.added_titles == ["New"] and outcome.merged_titles == ["More"]
    assert pending.appliedAt == NOW.isoformat() and not outcome.rebased
    after = (workspace / "memory" / "2026-05-15.md").read_bytes()
    again = apply_pending(pending, now=NOW, workspace=workspace)
    assert again.already_applied and not again.written
    assert (workspace / "memory" / "2026-05-15.md").read_bytes() == after


def test_apply_after_midnight_keeps_the_preview_day(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    pending = make_pending(tmp_path)
    apply_pending(pending, now=NOW + timedelta(minutes=20), workspace=tmp_path)
    written = (tmp_path / "memory" / "2026-05-15.md").read_text()
    assert written.startswith("# 2026-05-15\n\n## 00:10 - New\n")
    assert not (tmp_path / "memory" / "2026-05-16.md").exists()


def test_apply_reapplies_to_a_changed_file(workspace: Path) -> None:
    pending = make_pending(workspace)
    path = workspace / "memory" / "2026-05-15.md"
    path.write_text(MEMORY + "\n## 12:00 - Edited meanwhile\n- kept\n")
    outcome = apply_pending(pending, now=NOW, workspace=workspace)
    assert outcome.rebased and outcome.written
    text = path.read_text()
    assert "## 12:00 - Edited meanwhile\n- kept\n" in text
    assert "- a\n- b\n- (merged 23:50)\n" in text and text.endswith("## 23:50 - New\n- n\n")


def test_pending_file_helpers(workspace: Path) -> None:
    path = workspace / "temp" / "savenow-pending.json"
    assert read_pending(path) is None
    pending = make_pending(workspace)
    write_pending(path, pending)
    assert read_pending(path) == pending
    _applied, outcome = apply_pending_file(path, now=NOW, memory_workspace=workspace, thread_id="42")
    assert outcome.written and read_pending(path).appliedAt == NOW.isoformat()  # type: ignore[union-attr]
    _, second = apply_pending_file(path, now=NOW, memory_workspace=workspace)
    assert second.already_applied
    assert delete_pending(path) is not None and read_pending(path) is None
    with pytest.raises(NoPendingError):
        apply_pending_file(path, now=NOW, memory_workspace=workspace)
    path.write_text("{not json")
    with pytest.raises(BadInputError, match="not valid JSON"):
        read_pending(path)


def test_store_one_pending_per_scope(workspace: Path) -> None:
    store = PendingStore(workspace / ".savenow")
    first, second = make_pending(workspace), make_pending(workspace, messageThreadId="7")
    store.save("chat:-100/thread:42", first)
    store.save("chat:-100/thread:7", second)
    store.save("chat:-100/thread:42", make_pending(workspace, id="newer"))
    assert store.load("chat:-100/thread:42").id == "newer"  # type: ignore[union-attr]
    assert store.load("chat:-100/thread:7") == second
    assert store.path("chat:-100/thread:42").parent == workspace / ".savenow" / "pending"
    assert store.path("../../etc/passwd").parent == workspace / ".savenow" / "pending"
    _, outcome = apply_from_store(
        store, "chat:-100/thread:42", now=NOW, workspace=workspace, thread_id="42", pending_id="newer"
    )
    assert outcome.written
    with pytest.raises(NoPendingError, match="replaced by a newer one"):
        apply_from_store(store, "chat:-100/thread:7", now=NOW, pending_id="old")
    assert store.delete("chat:-100/thread:7") == second and store.load("chat:-100/thread:7") is None
    assert store.delete("chat:-100/thread:7") is None
    assert not list((workspace / "memory").glob(".*"))
