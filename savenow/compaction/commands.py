"""``savenow compact status|run|history|check`` (DESIGN §15): parse flags, call the service, print."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import BadInputError


def _service(args: argparse.Namespace) -> Any:
    from ..commands import settings_from_args
    from .service import CompactionService

    return CompactionService(settings_from_args(args, require_workspace=False))  # the flush is skipped, said so


def _target(args: argparse.Namespace) -> Any:
    from ..commands import id_flag
    from .service import Target

    named = [bool(args.store), bool(args.session_key), bool(args.chat_id or args.thread_id)]
    if sum(named) > 1:
        raise BadInputError(
            "name one session: --store FILE, a KEY, or --chat-id C --thread-id T",
            "只能指定一个会话：--store FILE、KEY 或 --chat-id C --thread-id T",
        )
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
            raise BadInputError(f"{flag} must be a positive number", f"{flag} 必须是正数")
    return {"preserve_recent": args.preserve_recent, "max_tokens": args.max_tokens}


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def compact(args: argparse.Namespace) -> int:
    action = args.action
    if action == "check":
        return _check(args)
    if action == "status" and _fast_status_possible(args):
        return _print_status(_fast_status(args), args.json)
    service = _service(args)
    target = _target(args)
    if action == "status":
        return _print_status(service.status(target, **_overrides(args)), args.json)
    if action == "history":
        items = service.history(target)
        if args.json:
            _print_json({"compactions": items})
        elif not items:
            print("No compactions yet.")
        else:
            for item in items:
                print(
                    f"{item['at']}  removed {item['removedCount']}  "
                    f"{item['tokensBefore']} → {item['tokensAfter']} tokens"
                )
        return 0
    result = service.run(target, force=args.force, **_overrides(args))
    if args.json:
        _print_json(result.to_json())
        return 0
    if not result.compacted:
        why = {
            "under-threshold": f"under the threshold (~{result.tokens_before} tokens); --force compacts anyway",
            "nothing-new": "nothing new since the last compaction",
        }.get(result.reason, result.reason)
        print(f"Nothing compacted: {why}. No file changed.")
        return 0
    print(
        f"Compacted: {result.removed_count} messages summarized, ~{result.tokens_before} → "
        f"~{result.tokens_after} tokens (compaction #{result.compaction_count})."
    )
    _print_flush(result.flush.to_json())
    return 0


def _print_status(status: dict[str, Any], as_json: bool) -> int:
    if as_json:
        _print_json(status)
        return 0
    verdict = "compaction due" if status["shouldCompact"] else "under the threshold"
    print(
        f"{status['store']}: {status['messages']} messages, ~{status['tokens']} tokens of "
        f"{status['maxTokens']} ({verdict}); compacted {status['compactionCount']} times."
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

    from .compactor import SessionCompactor
    from .stores import SessionFileStore

    limits = {key: int(os.environ[name]) for key, name in _LIMIT_ENV.items() if name in os.environ}
    overrides = {k: v for k, v in _overrides(args).items() if v is not None}
    limits.update(overrides)
    path = Path(args.store).expanduser()
    if not path.is_file():
        from ..errors import CompactionStoreError

        raise CompactionStoreError(f"session file {args.store} not found", f"找不到会话文件 {args.store}")
    return SessionCompactor(
        preserve_recent=limits.get("preserve_recent", 4),
        max_tokens=limits.get("max_tokens", 80_000),
        store=SessionFileStore(path),
    ).status()


def _print_flush(flush: dict[str, Any]) -> None:
    status = flush["status"]
    if status == "written":
        print(f"Memory flush: wrote {', '.join(flush['notes'])} to {flush.get('memoryPath')} (savenow undo).")
    elif status in ("skipped", "failed"):
        print(f"savenow: {flush.get('notice', '')}", file=sys.stderr)  # the notice says what happened
    elif status == "nothing":
        print("Memory flush: nothing durable in the removed messages.")


def _check(args: argparse.Namespace) -> int:
    """Cron / heartbeat: quiet when there is nothing to do."""
    service = _service(args)
    targets = [_target(args)] if (args.store or args.session_key or args.chat_id) else None
    for label, result in service.check(targets):
        if args.json:
            print(json.dumps({"session": label, **result.to_json()}, ensure_ascii=False))
        else:
            print(f"compacted {label}: {result.removed_count} messages, flush {result.flush.status}")
    return 0
