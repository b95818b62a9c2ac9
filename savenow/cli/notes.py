"""``savenow preview|auto|list|apply|cancel|undo|demo`` (DESIGN §10): parse flags, call the service, print.

Each function takes the argparse namespace and returns the exit status.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import BadInputError
from ..messages import Text, text
from ..service import ApplyResult, ListResult, PreviewResult, SaveNowApi, SaveNowService
from .args import lang_of, print_json, scope_from_args, settings_from_args

if TYPE_CHECKING:
    from ..config import Settings

__all__ = ["apply", "auto", "cancel", "demo", "list_sessions", "preview", "undo"]


def _service(args: argparse.Namespace, settings: Settings | None = None) -> SaveNowApi:
    return SaveNowService(settings or settings_from_args(args))


def _day(args: argparse.Namespace) -> date | None:
    if not getattr(args, "date", None):
        return None
    try:
        return date.fromisoformat(args.date)
    except ValueError as exc:
        raise BadInputError(Text("cli.bad_date", value=args.date)) from exc


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
        print_json(_result_json(result, written=False, preview=result.markdown))
    else:
        print(result.markdown)
    return 0


def auto(args: argparse.Namespace) -> int:
    result = _service(args).auto(scope_from_args(args), args.session_key, _day(args))
    if args.json:
        print_json(_result_json(result, written=result.written, preview=result.markdown))
    else:
        print(result.markdown)
        print(_apply_summary(result, lang_of(args)))
    return 0


def apply(args: argparse.Namespace) -> int:
    result = _service(args).apply(scope_from_args(args))
    if args.json:
        print_json(
            _result_json(
                result,
                written=result.written,
                already_applied=result.already_applied,
                undone_since=result.undone_since,
            )
        )
    else:
        print(_apply_summary(result, lang_of(args)))
    return 0


def cancel(args: argparse.Namespace) -> int:
    result = _service(args).cancel(scope_from_args(args))
    print(text("cli.cancelled", lang_of(args), key=result.session_key))
    return 0


def list_sessions(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    result: ListResult = _service(args, settings).list_sessions(scope_from_args(args))
    setup = _setup_json(settings)
    if args.json:
        print_json(
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
    lang = lang_of(args)
    setup = _setup_json(settings, lang)  # the text speaks the reader's language; the JSON stays English
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


def _setup_json(settings: Settings, lang: str = "en") -> dict[str, Any]:
    """Which workspace and time zone were used, and where each came from (zero-flag setup, issue 13)."""
    setup = settings.openclaw
    ours = text("setup.from.savenow", lang)
    return {
        "workspace": str(settings.workspace),
        "workspace_from": setup.workspace_from.render(lang) if setup else ours,
        "timezone": settings.timezone,
        "timezone_from": setup.timezone_from.render(lang) if setup else ours,
    }


def undo(args: argparse.Namespace) -> int:
    if getattr(args, "list", False):
        return _undo_list(args)
    result = _service(_undo_workspace(args)).undo()
    if getattr(args, "json", False):
        print_json({"memory_path": str(result.memory_path), "removed_lines": result.removed_lines})
    else:
        print(text("cli.undone", lang_of(args), path=result.memory_path, lines=result.removed_lines))
    return 0


def _undo_list(args: argparse.Namespace) -> int:
    """The writes `savenow undo` would take out, newest first (the first is next)."""
    from ..storage.journal import MEMORY_KIND, settled_view, undo_stack

    settings = settings_from_args(_undo_workspace(args))
    stack = list(reversed(undo_stack(settled_view(settings.workspace), frozenset({MEMORY_KIND}))))
    if getattr(args, "json", False):
        rows = [
            {"id": r.id, "time": r.time, "path": r.memory_path, "lines": r.inserted_lines, "titles": r.titles}
            for r in stack
        ]
        print_json({"writes": rows})
        return 0
    if not stack:
        print(text("cli.undo_list_empty", lang_of(args)))
    for number, r in enumerate(stack, 1):
        titles = "; ".join(r.titles) or "-"
        print(
            text(
                "cli.undo_list_line",
                lang_of(args),
                number=number,
                time=r.time,
                path=r.memory_path,
                lines=r.inserted_lines,
                titles=titles,
            )
        )
    return 0


def _undo_workspace(args: argparse.Namespace) -> argparse.Namespace:
    """The script drop-ins journal into the workspace they derive (the current directory, usually),
    so without --workspace an undo run where a journal lies takes that one (DESIGN §8)."""
    from ..storage.journal import journal_path

    if args.workspace is None and journal_path(Path.cwd()).is_file():
        return argparse.Namespace(**{**vars(args), "workspace": str(Path.cwd())})
    return args


def demo(args: argparse.Namespace) -> int:
    from ..demo import run_demo

    return run_demo(keep=getattr(args, "keep", None), out=sys.stdout)
