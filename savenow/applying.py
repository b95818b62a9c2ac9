"""Apply a pending preview to its memory file (DESIGN §5.4), one layer above the pending store.

The pending store (:mod:`savenow.pending`) only stores previews; the memory
writer (:mod:`savenow.memory.writer`) only writes memory files; this module is
where the two meet, so neither imports the other.

Apply is idempotent: a pending with ``appliedAt`` set writes nothing;
:func:`apply_pending` then returns ``WriteOutcome(written=False,
already_applied=True)`` rather than raising, and says whether that earlier
write has been undone since (``undone_since``), so callers report what really
happened. :func:`apply_pending_file` and :func:`apply_from_store` read, check,
write and mark the pending under the pending file's lock, so a double tap
cannot write twice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import BadInputError, NoPendingError
from .memory.writer import WriteOutcome, write_entries
from .pending import PendingPreview, PendingStore, check_pending, read_pending, store_pending
from .storage.files import refuse_memory_md
from .storage.journal import settled_view
from .storage.locks import file_lock

TargetCheck = Callable[[Path], Path]


def apply_pending(
    pending: PendingPreview,
    *,
    now: datetime,
    workspace: Path,
    allow_merge: bool = True,
    check_target: TargetCheck | None = None,
) -> WriteOutcome:
    """Write the pending's entries to the memory path fixed at preview time; sets ``appliedAt``.

    Already applied → nothing written, ``already_applied=True`` (and ``undone_since``
    when ``savenow undo`` took that write out). The entries are re-planned against
    the file's current content under its lock, so a file changed since the preview
    gets them re-applied, never overwritten.
    """
    memory_path = Path(pending.memoryPath)
    refuse_memory_md(memory_path)
    if check_target is not None:
        check_target(memory_path)
    if pending.appliedAt:
        return WriteOutcome(
            memory_path=memory_path,
            already_applied=True,
            applied_at=pending.appliedAt,
            undone_since=_undone(workspace, pending.appliedWriteId),
        )
    extra: dict[str, Any] = {"base_sha256": pending.baseSha256} if pending.baseKnown else {}
    outcome = write_entries(
        memory_path,
        pending.entry_objects(),
        workspace=workspace,
        now=now,
        day=pending.day or now.date(),
        allow_merge=allow_merge,
        **extra,
    )
    pending.appliedAt = now.isoformat()
    pending.appliedWriteId = outcome.journal_id
    return outcome


def _undone(workspace: Path, write_id: str | None) -> bool:
    if not write_id:
        return False
    return any(r.undoes == write_id and r.state == "committed" for r in settled_view(workspace))


def apply_pending_file(
    path: Path,
    *,
    now: datetime,
    workspace: Path | None = None,
    session_key: str | None = None,
    thread_id: str | int | None = None,
    chat_id: str | int | None = None,
    pending_id: str | None = None,
    memory_workspace: Path | None = None,
    check_target: TargetCheck | None = None,
) -> tuple[PendingPreview, WriteOutcome]:
    """Read, check, apply and mark the pending at ``path``, all under the pending file's lock.

    ``workspace`` holds the pending file's lock; ``memory_workspace`` (default:
    the same) holds the memory file's lock and the journal. ``check_target``
    re-checks the pending's ``memoryPath`` as read under the lock.
    """
    with file_lock(path, workspace):
        pending = check_pending(
            read_pending(path), now=now, session_key=session_key, thread_id=thread_id, chat_id=chat_id
        )
        if pending_id is not None and pending.id != pending_id:
            raise NoPendingError(
                "This preview was replaced by a newer one; use the latest preview's buttons.",
                "这个预览已被更新的预览取代，请使用最新预览的按钮。",
            )
        target_workspace = memory_workspace or workspace
        if target_workspace is None:
            raise BadInputError("no workspace for the memory file's lock and journal", "缺少工作区")
        outcome = apply_pending(pending, now=now, workspace=target_workspace, check_target=check_target)
        if not outcome.already_applied:
            store_pending(path, pending, workspace=workspace)
    return pending, outcome


def apply_from_store(
    store: PendingStore,
    scope_key: str,
    *,
    now: datetime,
    workspace: Path | None = None,
    thread_id: str | int | None = None,
    chat_id: str | int | None = None,
    pending_id: str | None = None,
    check_target: TargetCheck | None = None,
) -> tuple[PendingPreview, WriteOutcome]:
    """Check and apply one scope's pending of the bot's store under its lock."""
    return apply_pending_file(
        store.path(scope_key),
        now=now,
        workspace=store.workspace,
        thread_id=thread_id,
        chat_id=chat_id,
        pending_id=pending_id,
        memory_workspace=workspace or store.workspace,
        check_target=check_target,
    )
