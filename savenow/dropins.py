"""Drop-ins for the OpenClaw savenow skill's Node scripts (DESIGN §6, §10).

``savenow preview-diff``, ``savenow merge-daily-memory``, ``savenow apply
--pending-file`` and ``savenow cancel --pending-file`` take the Node scripts'
flags and print their outputs. They import only the memory engine (rapidfuzz,
standard library): no pydantic, telegram, httpx or yaml, so a whole process
starts about as fast as ``node`` does.

Workspace (memory locks, journal): the folder holding the target's
``memory/`` folder, else the current directory (DESIGN §8). The skill's
pending file stays where the skill puts it; its lock lives in the system
temp folder, so preview, apply and cancel agree on it whatever the cwd. Relative paths resolve
against the current directory. Bad input raises a ``SaveNowError``; the CLI
prints it as one line and exits 2 before any file is touched.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import date
from pathlib import Path
from typing import Any

from .clock import Clock, load_timezone
from .errors import BadInputError, FileMissingError
from .memory.document import MemoryDocument
from .messages import Text
from .models import Entry, parse_entries, redact_entries, redaction_notice
from .storage.files import read_exact, read_json
from .storage.targets import check_memory_target, check_state_target

TIMEZONE_ENV = "SAVENOW_TIMEZONE"
WORKSPACE_ENV = "SAVENOW_WORKSPACE"
# The configured secrets, read from the environment (the drop-ins load no config file: no pydantic).
SECRET_ENVS = ("SAVENOW_LLM__API_KEY", "SAVENOW_TELEGRAM__TOKEN", "OPENAI_API_KEY", "TELEGRAM_BOT_TOKEN")
MAX_TTL_MINUTES = 24 * 60


def _clock() -> Clock:
    return Clock.from_env(load_timezone(os.environ.get(TIMEZONE_ENV)))


def _resolve(raw: str) -> Path:
    """An absolute path for a command-line path, relative to the current directory (not symlink-resolved)."""
    return Path(os.path.abspath(os.path.expanduser(raw)))


def _day(raw: str | None, clock: Clock) -> date:
    if not raw:
        return clock.today()
    try:
        return date.fromisoformat(raw)
    except ValueError as exc:
        raise BadInputError(Text("dropins.bad_date", value=repr(raw))) from exc


def allowed_roots() -> list[Path]:
    """Where a drop-in may write memory: the folder it runs from, and ``SAVENOW_WORKSPACE`` when set."""
    roots = [Path.cwd()]
    if os.environ.get(WORKSPACE_ENV):
        roots.append(_resolve(os.environ[WORKSPACE_ENV]))
    return roots


def check_target(path: Path) -> Path:
    """A regular ``.md`` file (not a symlink, not MEMORY.md, not read-only) inside :func:`allowed_roots`."""
    if path.is_dir():
        raise BadInputError(Text("dropins.memory_path_is_folder", path=path))
    return check_memory_target(path, allowed_roots())


def _memory_path(raw: str | None, day: date) -> Path:
    path = _resolve(raw) if raw else Path.cwd() / "memory" / f"{day.isoformat()}.md"
    return check_target(path)


def _secrets() -> list[str]:
    return [value for name in SECRET_ENVS if (value := os.environ.get(name, "").strip())]


def workspace_for(memory_path: Path) -> Path:
    """The folder that holds the target's ``memory/`` folder, or the current directory (DESIGN §8)."""
    if memory_path.parent.name == "memory":
        return memory_path.parent.parent
    return Path.cwd()


def _memory_label(memory_path: Path) -> str:
    """As the Node script shows it: relative to the current directory when that is shorter."""
    try:
        relative = os.path.relpath(memory_path, Path.cwd())
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(memory_path)
    return relative.replace(os.sep, "/") if relative else str(memory_path)


def read_entries_file(raw: str) -> tuple[Path, list[Entry]]:
    path, entries, _ = read_entries(raw)
    return path, entries


def read_entries(raw: str) -> tuple[Path, list[Entry], int]:
    """The entries file's entries, secrets redacted; and how many secrets were."""
    path = _resolve(raw)
    data = read_json(path, "entries file")
    if data is None:
        raise FileMissingError(Text("dropins.entries_missing", path=path))
    entries, redacted = redact_entries(parse_entries(data), _secrets())
    return path, entries, redacted


def _ttl(value: Any) -> int:
    if not isinstance(value, int) or not 1 <= value <= MAX_TTL_MINUTES:
        raise BadInputError(Text("dropins.bad_ttl", high=MAX_TTL_MINUTES, value=repr(value)))
    return value


def _print_json(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def preview_diff(args: argparse.Namespace) -> int:
    """Print the §6 preview; with ``--pending-file``, store the pending preview (not for 0 candidates)."""
    from .memory.draft import draft

    clock = _clock()
    now = clock.now()
    ttl = _ttl(args.ttl_minutes)
    day = _day(args.date, clock)
    entries_file, entries, redacted = read_entries(args.entries_file)
    memory_path = _memory_path(args.memory_path, day)
    pending_file = _resolve(args.pending_file) if args.pending_file else None
    if pending_file is not None:
        check_state_target(pending_file, forbidden=[memory_path, entries_file])
    memory_text = read_exact(memory_path)
    notices = [redaction_notice(redacted)] if redacted else []
    drafted = draft(
        entries,
        MemoryDocument.parse(memory_text),
        memory_label=_memory_label(memory_path),
        ttl_minutes=ttl,
        notices=notices,
    )
    if pending_file is not None and drafted.decisions:
        from .pending import PendingPreview, write_pending

        pending = PendingPreview.create(
            now=now,
            ttl_minutes=ttl,
            memory_path=memory_path,
            day=day,
            entries=entries,  # as the skill's script stores them: the entries file's, before the comparer
            memory_text=memory_text,
            session_key=args.session_key or None,
            thread_id=args.message_thread_id or None,
            entriesFile=str(entries_file),
        )
        # skill pending files lock in the system temp dir
        write_pending(pending_file, pending, forbidden=[entries_file])
    sys.stdout.write(drafted.markdown)
    if pending_file is not None and drafted.decisions:
        sys.stderr.write(f"pending written: {pending_file}\n")
    return 0


def merge_daily_memory(args: argparse.Namespace) -> int:
    """Apply the entries file to the memory file; print the §6 merge JSON."""
    from .memory.writer import write_entries

    clock = _clock()
    now = clock.now()
    day = _day(args.date, clock)
    _, entries, _ = read_entries(args.entries_file)
    memory_path = _memory_path(args.memory_path, day)
    read_exact(memory_path)  # refuse a non-UTF-8 file before any lock or state file is created
    outcome = write_entries(
        memory_path,
        entries,
        workspace=workspace_for(memory_path),
        now=now,
        day=day,
        allow_merge=str(args.allow_merge).lower() != "false",
    )
    _print_json(outcome.to_json())
    return 0


def apply_pending_file(args: argparse.Namespace) -> int:
    """Check the skill's pending file (TTL, session, topic) and write its entries; print the merge JSON."""
    from .applying import apply_pending_file as apply_locked
    from .errors import NoPendingError
    from .pending import read_pending

    clock = _clock()
    now = clock.now()
    pending_path = _resolve(args.pending_file)
    check_state_target(pending_path)
    peek = read_pending(pending_path)  # only to learn where the memory file (and its workspace) is
    if peek is None:
        raise NoPendingError(Text("pending.none"))
    memory_path = check_target(_resolve(peek.memoryPath))
    pending, outcome = apply_locked(
        pending_path,
        now=now,
        memory_workspace=workspace_for(memory_path),
        session_key=args.session_key,
        thread_id=args.message_thread_id,
        check_target=lambda path: check_target(_resolve(str(path))),
    )
    _print_json(outcome.to_json())
    if outcome.undone_since:
        sys.stderr.write(
            f"Preview was applied ({pending.appliedAt}) and that write was undone since; nothing written. "
            "Run preview-diff again to write it.\n"
        )
    elif outcome.already_applied:
        sys.stderr.write(f"Preview already applied ({pending.appliedAt}); nothing written.\n")
    return 0


def cancel_pending_file(args: argparse.Namespace) -> int:
    """Delete the skill's pending file; never writes memory."""
    from .pending import delete_pending

    pending_path = _resolve(args.pending_file)
    check_state_target(pending_path)
    if read_exact(pending_path) is None:
        print("No pending preview to cancel.")
        return 0
    pending = delete_pending(pending_path)
    if pending is not None and pending.appliedAt:
        print("Pending preview was already applied; removed it. Nothing written.")
    else:
        print("Pending preview cancelled. Nothing written.")
    return 0


__all__ = [
    "apply_pending_file",
    "cancel_pending_file",
    "merge_daily_memory",
    "preview_diff",
    "read_entries_file",
    "workspace_for",
]
