"""The ``savenow`` command line: argparse front, one small function per command, no logic.

Each command's implementation is imported only when that command runs, so the
script drop-ins (``preview-diff``, ``merge-daily-memory``, ``apply --pending-file``,
``cancel --pending-file``) never import telegram, httpx or pydantic.

Exit status (DESIGN §10): 0 done, 2 refused or bad input (one line on stderr,
no file changed), 1 internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .errors import SaveNowError

Runner = Callable[[argparse.Namespace], int]


def _settings_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("configuration (flags beat SAVENOW_* env and the YAML file)")
    group.add_argument(
        "--config", metavar="FILE", help="YAML config file (default ~/.config/savenow/config.yaml)"
    )
    group.add_argument("--workspace", metavar="DIR", help="agent workspace holding memory/")
    group.add_argument("--sessions-dir", metavar="DIR", help="OpenClaw sessions folder (read only)")
    group.add_argument("--recorder-dir", metavar="DIR", help="the bot recorder's sessions folder")
    group.add_argument("--timezone", metavar="IANA", help="time zone for today's file, e.g. Asia/Shanghai")
    group.add_argument("--extractor", choices=["auto", "heuristic", "llm"])
    group.add_argument("--transcript-limit", type=int, metavar="N", help="messages read (120..180)")


def _scope_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--chat-id", help="Telegram chat id of the scope")
    parser.add_argument("--thread-id", help="forum topic (message thread) id of the scope")


def _lazy(module: str, function: str) -> Runner:
    def run(args: argparse.Namespace) -> int:
        import importlib

        return int(getattr(importlib.import_module(module, __package__), function)(args))

    return run


def _apply_or_drop_in(args: argparse.Namespace) -> int:
    if args.pending_file:
        return _lazy(".dropins", "apply_pending_file")(args)
    return _lazy(".commands", "apply")(args)


def _cancel_or_drop_in(args: argparse.Namespace) -> int:
    if args.pending_file:
        return _lazy(".dropins", "cancel_pending_file")(args)
    return _lazy(".commands", "cancel")(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="savenow",
        description="Save what matters from a chat into memory/YYYY-MM-DD.md, with a preview first.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    for name, help_text in (
        ("preview", "extract durable notes and show the diff; stores a pending preview, writes no memory"),
        ("auto", "extract, compare and write directly, no preview"),
    ):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("session_key", nargs="?", metavar="SESSION_KEY", help="explicit session key")
        _scope_flags(p)
        p.add_argument("--date", metavar="YYYY-MM-DD", help="which day's memory file (default: today)")
        p.add_argument("--json", action="store_true", help="print one JSON object")
        _settings_flags(p)
        p.set_defaults(run=_lazy(".commands", name))

    p = sub.add_parser("list", help="list the topic's candidate sessions")
    _scope_flags(p)
    p.add_argument("--json", action="store_true")
    _settings_flags(p)
    p.set_defaults(run=_lazy(".commands", "list_sessions"))

    p = sub.add_parser("apply", help="write the pending preview (or a skill's --pending-file)")
    _scope_flags(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--pending-file", metavar="P", help="drop-in: the skill's temp/savenow-pending.json")
    p.add_argument("--session-key", metavar="K", help="drop-in: the session applying (scope check)")
    p.add_argument("--message-thread-id", metavar="T", help="drop-in: the topic applying (scope check)")
    _settings_flags(p)
    p.set_defaults(run=_apply_or_drop_in)

    p = sub.add_parser("cancel", help="drop the pending preview (or a skill's --pending-file)")
    _scope_flags(p)
    p.add_argument("--pending-file", metavar="P", help="drop-in: the skill's temp/savenow-pending.json")
    _settings_flags(p)
    p.set_defaults(run=_cancel_or_drop_in)

    p = sub.add_parser("undo", help="remove exactly the lines the last write inserted, if unchanged")
    p.add_argument("--json", action="store_true")
    p.add_argument("--list", action="store_true", help="show the writes undo can take out, newest first")
    _settings_flags(p)
    p.set_defaults(run=_lazy(".commands", "undo"))

    p = sub.add_parser("demo", help="run preview and apply on a bundled sample workspace (offline)")
    p.add_argument("--keep", metavar="DIR", help="copy the sample into DIR and keep it")
    p.set_defaults(run=_lazy(".commands", "demo"))

    p = sub.add_parser("bot", help="run the standalone Telegram bot (polling)")
    p.add_argument("--api-base-url", metavar="URL", help="Bot API base URL, e.g. a local Bot API server")
    _settings_flags(p)
    p.set_defaults(run=_lazy(".telegram.bot", "run_from_cli"))

    p = sub.add_parser("preview-diff", help="drop-in for the skill's preview-diff script (Markdown preview)")
    p.add_argument("--entries-file", required=True, metavar="F")
    p.add_argument("--memory-path", metavar="M", help="default: memory/<date>.md under the current directory")
    p.add_argument("--pending-file", metavar="P")
    p.add_argument("--session-key", metavar="K")
    p.add_argument("--message-thread-id", metavar="T")
    p.add_argument("--ttl-minutes", type=int, default=30, metavar="N")
    p.add_argument("--date", metavar="D")
    p.set_defaults(run=_lazy(".dropins", "preview_diff"))

    p = sub.add_parser("merge-daily-memory", help="drop-in for the skill's merge script (JSON result)")
    p.add_argument("--entries-file", required=True, metavar="F")
    p.add_argument("--memory-path", metavar="M")
    p.add_argument("--date", metavar="D")
    p.add_argument("--allow-merge", choices=["true", "false"], default="true")
    p.set_defaults(run=_lazy(".dropins", "merge_daily_memory"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _quiet_library_logs()
    try:
        return args.run(args)
    except SaveNowError as error:
        print(f"savenow: {error.message('en')}", file=sys.stderr)
        return error.exit_code
    except (OSError, RecursionError, OverflowError) as error:
        # The environment refused (disk, permissions) past every typed check: still one line, exit 2.
        print(f"savenow: {_one_line(error)}; no file was changed by this command", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `savenow demo | head`: the reader left; say nothing more (and not at exit either).
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _quiet_library_logs() -> None:
    """Log records are for the bot's log, not the CLI's stderr (which holds one line per refusal).

    Without a handler, Python prints warnings to stderr ("lastResort"): an LLM retry would add lines.
    """
    import logging

    logger = logging.getLogger("savenow")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text[:300]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
