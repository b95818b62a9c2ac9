"""The chat-equivalent commands of the CLI (DESIGN §10): parse flags, call the service, print.

Each function takes the argparse namespace and returns the exit status.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from .config import Settings, load_settings
from .errors import BadInputError
from .service import ApplyResult, ListResult, PreviewResult, SaveNowService, Scope

_SETTINGS_FLAGS = ("workspace", "sessions_dir", "recorder_dir", "timezone", "extractor", "transcript_limit")


def _settings(args: argparse.Namespace) -> Settings:
    flags = {name: getattr(args, name, None) for name in _SETTINGS_FLAGS}
    settings = load_settings(getattr(args, "config", None), **flags)
    _require_workspace(settings.workspace)
    return settings


def _require_workspace(workspace: Path) -> None:
    """A missing workspace is a typo, not a request to create one (issue 10 item 8)."""
    if not workspace.is_dir():
        from .errors import ConfigError

        raise ConfigError(
            f"workspace {workspace} does not exist (--workspace / SAVENOW_WORKSPACE); nothing was created",
            f"工作区 {workspace} 不存在（--workspace / SAVENOW_WORKSPACE）；未创建任何内容",
        )


def _service(args: argparse.Namespace) -> SaveNowService:
    return SaveNowService(_settings(args))


def _scope(args: argparse.Namespace) -> Scope:
    chat_id = _id_flag(getattr(args, "chat_id", None), "--chat-id")
    thread_id = _id_flag(getattr(args, "thread_id", None), "--thread-id")
    return Scope(chat_id=chat_id, thread_id=thread_id)


def _id_flag(value: str | None, flag: str) -> str | None:
    if value is None:
        return None
    text = value.strip()
    if not text.lstrip("-").isdigit() or len(text) > 32:
        raise BadInputError(f"{flag} must be a Telegram numeric id, not {value!r}", f"{flag} 必须是数字 id")
    return text


def _day(args: argparse.Namespace) -> date | None:
    if not getattr(args, "date", None):
        return None
    try:
        return date.fromisoformat(args.date)
    except ValueError as exc:
        raise BadInputError(
            f"--date must be YYYY-MM-DD, not {args.date!r}", "--date 必须是 YYYY-MM-DD"
        ) from exc


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def _apply_summary(result: ApplyResult) -> str:
    if result.undone_since:
        return (
            f"This preview was applied ({result.applied_at}) and `savenow undo` took that write out since; "
            "nothing written. Run preview again to write it."
        )
    if result.already_applied:
        when = f" at {result.applied_at}" if result.applied_at else ""
        return f"Already applied{when} to {result.memory_path}: nothing written again."
    if not result.written:
        return f"Nothing new to write to {result.memory_path}."
    parts = [f"{len(result.added_titles)} added", f"{len(result.merged_titles)} merged"]
    parts.append(f"{len(result.skipped_titles)} skipped")
    created = " (new file)" if result.created_file else ""
    return f"Wrote {result.memory_path}{created}: " + ", ".join(parts) + "."


def _result_json(result: PreviewResult | ApplyResult, *, written: bool, **extra: Any) -> dict[str, Any]:
    """The one object `--json` prints (DESIGN §10)."""
    return {
        "session_key": result.session_key,
        "memory_path": str(result.memory_path),
        "entries": [entry.to_json() for entry in result.entries],
        "written": written,
        **extra,
    }


def preview(args: argparse.Namespace) -> int:
    result = _service(args).preview(_scope(args), args.session_key, _day(args))
    if args.json:
        _print_json(_result_json(result, written=False, preview=result.markdown))
    else:
        print(result.markdown)
    return 0


def auto(args: argparse.Namespace) -> int:
    result = _service(args).auto(_scope(args), args.session_key, _day(args))
    if args.json:
        _print_json(_result_json(result, written=result.written, preview=result.markdown))
    else:
        print(result.markdown)
        print(_apply_summary(result))
    return 0


def apply(args: argparse.Namespace) -> int:
    result = _service(args).apply(_scope(args))
    if args.json:
        _print_json(
            _result_json(
                result,
                written=result.written,
                already_applied=result.already_applied,
                undone_since=result.undone_since,
            )
        )
    else:
        print(_apply_summary(result))
    return 0


def cancel(args: argparse.Namespace) -> int:
    result = _service(args).cancel(_scope(args))
    print(f"Cancelled the pending preview of {result.session_key}. Nothing written.")
    return 0


def list_sessions(args: argparse.Namespace) -> int:
    result: ListResult = _service(args).list_sessions(_scope(args))
    if args.json:
        _print_json(
            {
                "sessions": [
                    {
                        "key": s.key,
                        "updated_at": s.updated_at.isoformat(timespec="seconds") if s.updated_at else None,
                        "thread_id": s.thread_id,
                        "messages": s.messages,
                    }
                    for s in result.sessions
                ]
            }
        )
        return 0
    if not result.sessions:
        print("No candidate sessions for this chat/topic.")
    for index, s in enumerate(result.sessions):
        marker = "*" if s.key == result.resolved_key else " "
        when = s.updated_at.strftime("%Y-%m-%d %H:%M") if s.updated_at else "?"
        print(f"{marker} {s.key}  (updated {when}, {s.messages} messages, {s.source})")
    if result.resolved_key:
        print("* = the session /savenow uses here; `/savenow <sessionKey>` picks another.")
    return 0


def undo(args: argparse.Namespace) -> int:
    if getattr(args, "list", False):
        return _undo_list(args)
    result = _service(_undo_workspace(args)).undo()
    if getattr(args, "json", False):
        _print_json({"memory_path": str(result.memory_path), "removed_lines": result.removed_lines})
    else:
        print(f"Undid the last write to {result.memory_path}: removed {result.removed_lines} lines.")
    return 0


def _undo_list(args: argparse.Namespace) -> int:
    """The writes `savenow undo` would take out, newest first (the first is next)."""
    from .storage.journal import settled_view, undo_stack

    settings = _settings(_undo_workspace(args))
    stack = list(reversed(undo_stack(settled_view(settings.workspace))))
    if getattr(args, "json", False):
        rows = [
            {"id": r.id, "time": r.time, "path": r.memory_path, "lines": r.inserted_lines, "titles": r.titles}
            for r in stack
        ]
        _print_json({"writes": rows})
        return 0
    if not stack:
        print("Nothing to undo.")
    for number, r in enumerate(stack, 1):
        titles = "; ".join(r.titles) or "-"
        print(f"{number}. {r.time}  {r.memory_path}  +{r.inserted_lines} lines  {titles}")
    return 0


def _undo_workspace(args: argparse.Namespace) -> argparse.Namespace:
    """The script drop-ins journal into the workspace they derive (the current directory, usually),
    so without --workspace an undo run where a journal lies takes that one (DESIGN §8)."""
    from .storage.journal import journal_path

    if args.workspace is None and journal_path(Path.cwd()).is_file():
        return argparse.Namespace(**{**vars(args), "workspace": str(Path.cwd())})
    return args


def demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(keep=getattr(args, "keep", None), out=sys.stdout)
