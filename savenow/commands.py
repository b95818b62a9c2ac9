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
from .messages import Lang, Text, text
from .service import ApplyResult, ListResult, PreviewResult, SaveNowService, Scope

_SETTINGS_FLAGS = ("workspace", "sessions_dir", "recorder_dir", "timezone", "extractor", "transcript_limit")


def settings_from_args(args: argparse.Namespace, *, require_workspace: bool = True) -> Settings:
    """Settings from the command's flags; a missing workspace is refused unless the command can do without."""
    flags = {name: getattr(args, name, None) for name in _SETTINGS_FLAGS}
    settings = load_settings(getattr(args, "config", None), **flags)
    if require_workspace:
        _require_workspace(settings.workspace)
    return settings


def _require_workspace(workspace: Path) -> None:
    """A missing workspace is a typo, not a request to create one (issue 10 item 8)."""
    if not workspace.is_dir():
        from .errors import ConfigError

        raise ConfigError(Text("config.no_workspace", workspace=workspace))


def _service(args: argparse.Namespace) -> SaveNowService:
    return SaveNowService(settings_from_args(args))


def scope_from_args(args: argparse.Namespace) -> Scope:
    """The scope a chat-equivalent command names (--chat-id / --thread-id), in the CLI's language."""
    chat_id = id_flag(getattr(args, "chat_id", None), "--chat-id")
    thread_id = id_flag(getattr(args, "thread_id", None), "--thread-id")
    return Scope(chat_id=chat_id, thread_id=thread_id, lang=_lang(args))


def _lang(args: argparse.Namespace) -> Lang:
    """The CLI speaks English unless ``--lang zh``."""
    return "zh" if str(getattr(args, "lang", None) or "en").startswith("zh") else "en"


def id_flag(value: str | None, flag: str) -> str | None:
    if value is None:
        return None
    text = value.strip()
    if not text.lstrip("-").isdigit() or len(text) > 32:
        raise BadInputError(Text("cli.bad_id_flag", flag=flag, value=value))
    return text


def _day(args: argparse.Namespace) -> date | None:
    if not getattr(args, "date", None):
        return None
    try:
        return date.fromisoformat(args.date)
    except ValueError as exc:
        raise BadInputError(Text("cli.bad_date", value=args.date)) from exc


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def _apply_summary(result: ApplyResult, lang: str = "en") -> str:
    if result.undone_since:
        return text("cli.applied_then_undone", lang, when=result.applied_at or "?")
    if result.already_applied:
        if result.applied_at:
            return text("cli.already_applied_at", lang, when=result.applied_at, path=result.memory_path)
        return text("cli.already_applied", lang)
    if not result.written:
        return text("cli.nothing_new", lang, path=result.memory_path)
    return text(
        "cli.wrote",
        lang,
        path=result.memory_path,
        created=text("cli.new_file", lang) if result.created_file else "",
        added=len(result.added_titles),
        merged=len(result.merged_titles),
        skipped=len(result.skipped_titles),
    )


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
    result = _service(args).preview(scope_from_args(args), args.session_key, _day(args))
    if args.json:
        _print_json(_result_json(result, written=False, preview=result.markdown))
    else:
        print(result.markdown)
    return 0


def auto(args: argparse.Namespace) -> int:
    result = _service(args).auto(scope_from_args(args), args.session_key, _day(args))
    if args.json:
        _print_json(_result_json(result, written=result.written, preview=result.markdown))
    else:
        print(result.markdown)
        print(_apply_summary(result, _lang(args)))
    return 0


def apply(args: argparse.Namespace) -> int:
    result = _service(args).apply(scope_from_args(args))
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
        print(_apply_summary(result, _lang(args)))
    return 0


def cancel(args: argparse.Namespace) -> int:
    result = _service(args).cancel(scope_from_args(args))
    print(text("cli.cancelled", _lang(args), key=result.session_key))
    return 0


def list_sessions(args: argparse.Namespace) -> int:
    service = _service(args)
    result: ListResult = service.list_sessions(scope_from_args(args))
    setup = _setup_json(service.settings)
    if args.json:
        _print_json(
            {
                "sessions": [
                    {
                        "key": s.key,
                        "updated_at": s.updated_at.isoformat(timespec="seconds") if s.updated_at else None,
                        "thread_id": s.thread_id,
                        "messages": s.messages,
                        "source": s.source,
                    }
                    for s in result.sessions
                ],
                **setup,
            }
        )
        return 0
    lang = _lang(args)
    if not result.sessions:
        print(text("cli.no_sessions", lang))
    for s in result.sessions:
        marker = "*" if s.key == result.resolved_key else " "
        when = s.updated_at.strftime("%Y-%m-%d %H:%M") if s.updated_at else "?"
        print(
            text(
                "cli.list_line",
                lang,
                marker=marker,
                key=s.key,
                updated=when,
                messages=s.messages,
                source=s.source,
            )
        )
    if result.resolved_key:
        print(text("cli.list_footer", lang))
    print(text("cli.list_workspace", lang, workspace=setup["workspace"], source=setup["workspace_from"]))
    print(
        text(
            "cli.list_timezone",
            lang,
            zone=setup["timezone"] or text("cli.host_local", lang),
            source=setup["timezone_from"],
        )
    )
    return 0


def _setup_json(settings: Settings) -> dict[str, Any]:
    """Which workspace and time zone were used, and where each came from (zero-flag setup, issue 13)."""
    setup = settings.openclaw
    return {
        "workspace": str(settings.workspace),
        "workspace_from": setup.workspace_from if setup else "savenow settings",
        "timezone": settings.timezone,
        "timezone_from": setup.timezone_from if setup else "savenow settings",
    }


def undo(args: argparse.Namespace) -> int:
    if getattr(args, "list", False):
        return _undo_list(args)
    result = _service(_undo_workspace(args)).undo()
    if getattr(args, "json", False):
        _print_json({"memory_path": str(result.memory_path), "removed_lines": result.removed_lines})
    else:
        print(text("cli.undone", _lang(args), path=result.memory_path, lines=result.removed_lines))
    return 0


def _undo_list(args: argparse.Namespace) -> int:
    """The writes `savenow undo` would take out, newest first (the first is next)."""
    from .storage.journal import settled_view, undo_stack

    settings = settings_from_args(_undo_workspace(args))
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
