"""``savenow compact status|run|history|check`` (DESIGN §15): parse flags, call the service, print."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import BadInputError
from ..messages import ListOf, Text, text
from .args import lang_of


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
    if action == "check":
        return _check(args)
    if action == "status" and _fast_status_possible(args):
        return _print_status(_fast_status(args), args.json, lang)
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


_LIMIT_ENV = {
    "max_tokens": "SAVENOW_COMPACTION__MAX_TOKENS",
    "preserve_recent": "SAVENOW_COMPACTION__PRESERVE_RECENT",
}


def _fast_status_possible(args: argparse.Namespace) -> bool:
    """`status --store FILE` with no config file to read: the settings model (pydantic, ~100 ms to
    import) is not needed — the two limits come from the flags or the environment, checked the same way."""
    import os

    # The names of savenow.config.CONFIG_ENV / DEFAULT_CONFIG_PATH: importing that module loads pydantic.
    if not args.store or args.session_key or args.chat_id or args.thread_id or args.config:
        return False
    if os.environ.get("SAVENOW_CONFIG") or Path("~/.config/savenow/config.yaml").expanduser().is_file():
        return False
    return all(
        os.environ.get(name, "").strip().isdigit() or name not in os.environ for name in _LIMIT_ENV.values()
    )


def _fast_status(args: argparse.Namespace) -> dict[str, Any]:
    import os

    from ..compaction.compactor import SessionCompactor
    from ..compaction.stores import SessionFileStore

    limits = {key: int(os.environ[name]) for key, name in _LIMIT_ENV.items() if name in os.environ}
    overrides = {k: v for k, v in _overrides(args).items() if v is not None}
    limits.update(overrides)
    path = Path(args.store).expanduser()
    if not path.is_file():
        from ..errors import CompactionStoreError

        raise CompactionStoreError(Text("cli.compact_store_missing", path=args.store))
    return SessionCompactor(
        preserve_recent=limits.get("preserve_recent", 4),
        max_tokens=limits.get("max_tokens", 80_000),
        store=SessionFileStore(path),
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
