"""``savenow compact status|run|history|check`` (DESIGN §15): parse flags, call the service, print."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import BadInputError
from ..messages import ListOf, Text, text
from .args import lang_of, quiet_library_logs


def _service(args: argparse.Namespace) -> Any:
    from ..service.compaction import CompactionService
    from .args import settings_from_args

    return CompactionService(
        settings_from_args(args, require_workspace=False)
    )  # the flush is skipped, said so


def _target(args: argparse.Namespace) -> Any:
    from ..service.compaction import Target
    from .args import id_flag

    named = [bool(args.store), bool(args.session_key), bool(args.chat_id or args.thread_id)]
    if sum(named) > 1:
        raise BadInputError(Text("cli.compact_one_session"))
    if args.store:
        return Target(store_file=Path(args.store))
    return Target(
        key=args.session_key,
        chat_id=id_flag(args.chat_id, "--chat-id"),
        thread_id=id_flag(args.thread_id, "--thread-id"),
    )


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    for flag, value in (("--preserve-recent", args.preserve_recent), ("--max-tokens", args.max_tokens)):
        if value is not None and value < 1:
            raise BadInputError(Text("cli.positive_number", flag=flag))
    return {"preserve_recent": args.preserve_recent, "max_tokens": args.max_tokens}


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def compact(args: argparse.Namespace) -> int:
    action = args.action
    lang = lang_of(args)
    if action == "status" and _store_only(args):
        return _print_status(_store_status(args), args.json, lang)
    quiet_library_logs()  # every other path may log (an LLM summary's retries, the flush)
    if action == "check":
        return _check(args)
    service = _service(args)
    target = _target(args)
    if action == "status":
        return _print_status(service.status(target, **_overrides(args)), args.json, lang)
    if action == "history":
        items = service.history(target)
        if args.json:
            _print_json({"compactions": items})
        elif not items:
            print(text("cli.compact_no_history", lang))
        else:
            for item in items:
                print(
                    text(
                        "cli.compact_history_line",
                        lang,
                        at=item["at"],
                        removed=item["removedCount"],
                        before=item["tokensBefore"],
                        after=item["tokensAfter"],
                    )
                )
        return 0
    result = service.run(target, force=args.force, **_overrides(args))
    if args.json:
        _print_json(result.to_json())
        return 0
    if not result.compacted:
        why = {
            "under-threshold": text("cli.compact_why_under_threshold", lang, tokens=result.tokens_before),
            "nothing-new": text("cli.compact_why_nothing_new", lang),
        }.get(result.reason, result.reason)
        print(text("cli.compact_nothing", lang, why=why))
        return 0
    print(
        text(
            "cli.compact_done",
            lang,
            removed=result.removed_count,
            before=result.tokens_before,
            after=result.tokens_after,
            count=result.compaction_count,
        )
    )
    _print_flush(result.flush, lang)
    return 0


def _print_status(status: dict[str, Any], as_json: bool, lang: str) -> int:
    if as_json:
        _print_json(status)
        return 0
    verdict = text(
        "cli.compact_verdict_due" if status["shouldCompact"] else "cli.compact_verdict_under", lang
    )
    print(
        text(
            "cli.compact_status",
            lang,
            store=status["store"],
            messages=status["messages"],
            tokens=status["tokens"],
            max_tokens=status["maxTokens"],
            verdict=verdict,
            count=status["compactionCount"],
        )
    )
    return 0


def _store_only(args: argparse.Namespace) -> bool:
    return bool(args.store) and not (args.session_key or args.chat_id or args.thread_id)


# = savenow.config.SETTINGS_FLAGS (importing that module loads pydantic; a test keeps them equal)
_SETTINGS_FLAGS = ("workspace", "sessions_dir", "recorder_dir", "timezone", "extractor", "transcript_limit")


def _store_status(args: argparse.Namespace) -> dict[str, Any]:
    """`status --store FILE` as the service answers it, without building the service: the few
    settings it reads are kept by :mod:`savenow.settings_cache` (pydantic is loaded only when the
    config, a flag or a SAVENOW_* variable changed), then the same checks in the same order."""
    from ..clock import Clock, load_timezone
    from ..compaction.compactor import SessionCompactor
    from ..compaction.stores import SessionFileStore
    from ..settings_cache import cached_view

    def compute(settings: Any) -> dict[str, Any]:
        sessions = settings.sessions_dir
        return {
            "max_tokens": settings.compaction.max_tokens,
            "preserve_recent": settings.compaction.preserve_recent,
            "timezone": settings.timezone,
            "sessions_dir": None if sessions is None else str(sessions),
        }

    def same(data: dict[str, Any]) -> dict[str, Any]:  # the view is plain JSON already
        return data

    flags = {name: getattr(args, name, None) for name in _SETTINGS_FLAGS}
    view = cached_view("compact-status", args.config, flags, compute, same, same)
    Clock.from_env(load_timezone(view["timezone"]))  # CompactionService's first step: its errors
    limits = {k: v for k, v in _overrides(args).items() if v is not None}
    sessions = None if view["sessions_dir"] is None else Path(view["sessions_dir"])
    return SessionCompactor(
        preserve_recent=limits.get("preserve_recent") or int(view["preserve_recent"]),
        max_tokens=limits.get("max_tokens") or int(view["max_tokens"]),
        store=SessionFileStore.checked(Path(args.store), sessions),
    ).status()


def _print_flush(flush: Any, lang: str) -> None:
    """``flush`` is the run's FlushReport: its notice is kept in both languages."""
    status = flush.status
    if status == "written":
        print(text("cli.compact_flush_written", lang, notes=ListOf(flush.notes), path=flush.memory_path))
    elif status in ("skipped", "failed"):
        notice = (flush.notice_zh if lang == "zh" else None) or flush.notice or ""
        print(text("cli.error", lang, message=notice), file=sys.stderr)  # the notice says what happened
    elif status == "nothing":
        print(text("cli.compact_flush_nothing", lang))


def _check(args: argparse.Namespace) -> int:
    """Cron / heartbeat: quiet when there is nothing to do."""
    service = _service(args)
    targets = [_target(args)] if (args.store or args.session_key or args.chat_id) else None
    for label, result in service.check(targets):
        if args.json:
            print(json.dumps({"session": label, **result.to_json()}, ensure_ascii=False))
        else:
            print(
                text(
                    "cli.compact_checked",
                    lang_of(args),
                    label=label,
                    removed=result.removed_count,
                    status=result.flush.status,
                )
            )
    return 0
