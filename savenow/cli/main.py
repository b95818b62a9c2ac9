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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..errors import SaveNowError

Runner = Callable[[argparse.Namespace], int]


class _Formatter(argparse.HelpFormatter):
    """The stock help formatter, measuring the terminal only when it formats text.

    argparse builds a formatter for every ``add_argument`` (to check its metavar), and the stock
    one measures the terminal each time, which imports :mod:`shutil` and its compression modules
    into every command's start-up. Nothing is laid out before ``format_help``, so measuring there
    gives the same text."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        self._measure = width is None
        self._wanted_help_position = max_help_position
        super().__init__(prog, indent_increment, max_help_position, 80 if width is None else width)

    def format_help(self) -> str:
        if self._measure:
            import shutil

            self._measure = False
            self._width = shutil.get_terminal_size().columns - 2
            self._max_help_position = min(
                self._wanted_help_position, max(self._width - 20, self._indent_increment * 2)
            )
        return super().format_help()


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose subcommands' parsers (built from its class) share :class:`_Formatter`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(**kwargs)


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
    group.add_argument(
        "--lang", choices=["en", "zh"], default=argparse.SUPPRESS, help="language of messages (default en)"
    )


def _version() -> str:
    from .. import __version__

    return __version__


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
        return _lazy("..dropins", "apply_pending_file")(args)
    return _lazy(".notes", "apply")(args)


def _cancel_or_drop_in(args: argparse.Namespace) -> int:
    if args.pending_file:
        return _lazy("..dropins", "cancel_pending_file")(args)
    return _lazy(".notes", "cancel")(args)


def _compact_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "compact", help="session compaction with a memory flush first (status|run|history|check)"
    )
    p.add_argument("action", choices=["status", "run", "history", "check"])
    p.add_argument("session_key", nargs="?", metavar="KEY", help="a recorded session key")
    p.add_argument("--store", metavar="FILE", help="a seed-format .clawsession.json file")
    _scope_flags(p)
    p.add_argument("--force", action="store_true", help="run: compact even under the threshold")
    p.add_argument("--preserve-recent", type=int, metavar="N", help="messages kept verbatim (default 4)")
    p.add_argument("--max-tokens", type=int, metavar="N", help="the threshold (default 80000)")
    p.add_argument("--json", action="store_true")
    _settings_flags(p)
    # `status --store` logs nothing and is run from cron: compact() quiets the logs on every other path.
    p.set_defaults(run=_lazy(".compaction", "compact"), quiet_logs=False)


def _objects_parser(sub: Any) -> None:
    """``savenow objects extract|apply|cancel|list|show|upsert|correct|forget|undo|maintain`` (DESIGN §15)."""
    objects = sub.add_parser("objects", help="structured memory objects: self, relationship, topic, saved")
    osub = objects.add_subparsers(dest="objects_command", metavar="ACTION", required=True)

    def add(name: str, function: str, help_text: str) -> argparse.ArgumentParser:
        p = osub.add_parser(name, help=help_text)
        p.add_argument("--json", action="store_true", help="print one JSON object")
        _settings_flags(p)
        p.set_defaults(run=_lazy(".objects", function))
        return p

    p = add("extract", "extract", "propose objects from a finished conversation (preview, writes no object)")
    p.add_argument("session_key", nargs="?", metavar="KEY", help="explicit session key")
    _scope_flags(p)
    _scope_flags(add("apply", "apply", "write the pending proposal"))
    _scope_flags(add("cancel", "cancel", "drop the pending proposal"))
    add("list", "list_objects", "list the stored objects")
    add("show", "show", "print one object").add_argument("ref", metavar="ID")
    for name, help_text in (("upsert", "create or update objects by identity"),
                            ("correct", "replace values; the old ones are marked superseded")):  # fmt: skip
        p = add(name, name, help_text)
        p.add_argument(
            "--json-file", required=True, metavar="F", help="the upsert_memory shape: an object or a list"
        )
        if name == "upsert":
            p.add_argument(
                "--remember", action="store_true", help='an explicit "remember this": lifts a tombstone'
            )
            p.add_argument(
                "--new", action="store_true", help="create even when the name near-matches a stored one"
            )
    p = add("forget", "forget", "move an object to trash and leave a tombstone")
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("--purge", action="store_true", help="also delete the trash copy (the tombstone stays)")
    add("undo", "undo", "restore the last object change byte for byte")
    add("maintain", "maintain", "pause/archive idle topics, mark vanished sources (idempotent)")


class _Unbuilt:
    """Stands in for the subcommands a run does not use: takes any parser call and builds nothing."""

    def __getattr__(self, name: str) -> Callable[..., _Unbuilt]:
        return self._nothing

    def _nothing(self, *args: Any, **kwargs: Any) -> _Unbuilt:
        return self


class _OnlySubcommand:
    """``add_subparsers()`` for a run that names its subcommand: only that one is built (building
    all of them and their ~260 options is ≈ 25 ms of every call's start-up)."""

    def __init__(self, sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str) -> None:
        self._sub = sub
        self._name = name
        self.built = False

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if name != self._name:
            return _Unbuilt()
        self.built = True
        return self._sub.add_parser(name, **kwargs)


def _named_subcommand(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, read the way the top-level parser would; None when anything
    else comes first (``--help``, ``--version``, an abbreviation): then every subcommand is built."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--lang":
            i += 2
        elif word.startswith("--lang="):
            i += 1
        elif word.startswith("-"):
            return None
        else:
            return word
    return None


def _parser_for(argv: Sequence[str]) -> argparse.ArgumentParser:
    name = _named_subcommand(argv)
    if name is not None:
        parser, only = _build(name)
        if only is not None and only.built:
            return parser
    return build_parser()  # no subcommand or an unknown one: the full parser says what exists


def build_parser() -> argparse.ArgumentParser:
    return _build(None)[0]


def _build(only: str | None) -> tuple[argparse.ArgumentParser, _OnlySubcommand | None]:
    parser = _Parser(
        prog="savenow",
        description="Save what matters from a chat into memory/YYYY-MM-DD.md, with a preview first.",
    )
    parser.add_argument("--version", action="version", version=f"savenow {_version()}")
    parser.add_argument(
        "--lang", choices=["en", "zh"], default="en", help="language of messages (default en)"
    )
    # prog given: argparse would format the usage line to find it, "savenow" (no positionals here)
    sub: Any = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, prog=parser.prog)
    selected = _OnlySubcommand(sub, only) if only is not None else None
    if selected is not None:
        sub = selected

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
        p.set_defaults(run=_lazy(".notes", name))

    p = sub.add_parser("list", help="list the topic's candidate sessions")
    _scope_flags(p)
    p.add_argument("--json", action="store_true")
    _settings_flags(p)
    p.set_defaults(run=_lazy(".notes", "list_sessions"))

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
    p.set_defaults(run=_lazy(".notes", "undo"))

    p = sub.add_parser("demo", help="run preview and apply on a bundled sample workspace (offline)")
    p.add_argument("--keep", metavar="DIR", help="copy the sample into DIR and keep it")
    p.set_defaults(run=_lazy(".notes", "demo"))

    p = sub.add_parser("bot", help="run the standalone Telegram bot (polling, or --webhook-url)")
    p.add_argument("--api-base-url", metavar="URL", help="Bot API base URL, e.g. a local Bot API server")
    p.add_argument("--webhook-url", metavar="URL", help="receive updates by webhook at this https:// URL")
    p.add_argument("--listen", metavar="ADDR", help="webhook: address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, metavar="PORT", help="webhook: port to listen on (default 8443)")
    p.add_argument(
        "--secret-token",
        metavar="TOKEN",
        help="webhook: the secret Telegram sends (default: random per start)",
    )
    _settings_flags(p)
    p.set_defaults(run=_lazy("..telegram.bot", "run_from_cli"))

    _compact_parser(sub)
    _objects_parser(sub)
    _search_commands(sub)

    p = sub.add_parser("preview-diff", help="drop-in for the skill's preview-diff script (Markdown preview)")
    p.add_argument("--entries-file", required=True, metavar="F")
    p.add_argument("--memory-path", metavar="M", help="default: memory/<date>.md under the current directory")
    p.add_argument("--pending-file", metavar="P")
    p.add_argument("--session-key", metavar="K")
    p.add_argument("--message-thread-id", metavar="T")
    p.add_argument("--ttl-minutes", type=int, default=30, metavar="N")
    p.add_argument("--date", metavar="D")
    p.set_defaults(run=_lazy("..dropins", "preview_diff"))

    p = sub.add_parser("merge-daily-memory", help="drop-in for the skill's merge script (JSON result)")
    p.add_argument("--entries-file", required=True, metavar="F")
    p.add_argument("--memory-path", metavar="M")
    p.add_argument("--date", metavar="D")
    p.add_argument("--allow-merge", choices=["true", "false"], default="true")
    p.set_defaults(run=_lazy("..dropins", "merge_daily_memory"))
    return parser, selected


def _search_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """memory_search / memory_get (DESIGN §12, §15); see docs/search.md."""
    p = sub.add_parser("search", help="search MEMORY.md and memory/ (Chinese and English)")
    p.add_argument("query", nargs="+", metavar="QUERY", help="what to look for; quote it, or put -- first")
    p.add_argument("--max-results", type=int, metavar="N", help="at most N results (default 6)")
    p.add_argument("--min-score", type=float, metavar="X", help="drop results scoring below X (0..1)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--config", metavar="FILE")
    p.add_argument("--workspace", metavar="DIR")
    p.add_argument("--timezone", metavar="IANA")
    p.set_defaults(run=_lazy(".search", "search"), quiet_logs=False)  # cli/search.py does it if it logs

    p = sub.add_parser("get", help="read a memory file (MEMORY.md, memory/**, search.extra_paths)")
    p.add_argument("path", metavar="PATH")
    p.add_argument("--from", dest="from_line", type=int, metavar="N", help="first line (1-based)")
    p.add_argument("--lines", type=int, metavar="K", help="how many lines")
    p.add_argument("--json", action="store_true")
    p.add_argument("--config", metavar="FILE")
    p.add_argument("--workspace", metavar="DIR")
    p.add_argument("--timezone", metavar="IANA")
    p.set_defaults(run=_lazy(".search", "get"), quiet_logs=False)  # reads a file: nothing logs


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = _parser_for(words) if words else build_parser()
    args = parser.parse_args(words)
    if getattr(args, "quiet_logs", True):
        from .args import quiet_library_logs  # beside the flag helpers every command loads

        quiet_library_logs()
    try:
        return args.run(args)
    except BrokenPipeError:  # before OSError, of which it is one
        # `savenow demo | head`: the reader left; say nothing more (and not at exit either).
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:
        refusal = _refusal(error)
        if refusal is not None:
            lang = getattr(args, "lang", "en")
            print(_text("cli.error", lang, message=" ".join(refusal.message(lang).split())), file=sys.stderr)
            return refusal.exit_code
        if not isinstance(error, OSError | RecursionError | OverflowError):
            raise
        # The environment refused (disk, permissions) past every typed check: still one line, exit 2.
        from .args import lang_of

        print(_text("cli.os_error", lang_of(args), message=_one_line(error)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _refusal(error: BaseException) -> SaveNowError | None:
    """``error`` as a typed refusal, or None.

    The catalog and the error classes load with the first command that uses them, not for
    ``--version`` or ``--help``: when :mod:`savenow.errors` was never imported, no refusal was raised.
    """
    errors = sys.modules.get("savenow.errors")
    if errors is not None and isinstance(error, errors.SaveNowError):
        return error
    return None


def _text(key: str, lang: str, **values: Any) -> str:
    from ..messages import text

    return text(key, lang, **values)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text[:300]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
