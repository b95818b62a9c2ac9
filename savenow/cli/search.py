"""``savenow search`` and ``savenow get`` (DESIGN §15): flags in, one service call, text or JSON out.

Start-up matters (an agent calls these per question). When nothing is configured — no config
file, no OpenClaw install to read, no ``SAVENOW_*`` variable beyond the workspace, time zone and
clock — the defaults are used directly and pydantic is never imported. Otherwise the settings are
validated like every other command's, and what search needs of them is kept by
:mod:`savenow.settings_cache` until one of their inputs changes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..messages import Text, text
from ..search.options import SearchOptions
from .args import lang_of, quiet_library_logs

if TYPE_CHECKING:
    from ..config import Settings

__all__ = ["get", "search"]

_FAST_ENV = {"SAVENOW_WORKSPACE", "SAVENOW_TIMEZONE", "SAVENOW_NOW"}
Setup = tuple[Path, SearchOptions]


def _options(args: argparse.Namespace) -> Setup:
    configured = (
        getattr(args, "config", None)
        or any(k.upper().startswith("SAVENOW_") and k.upper() not in _FAST_ENV for k in os.environ)
        or Path("~/.config/savenow/config.yaml").expanduser().is_file()
        # An OpenClaw install may name the workspace and time zone (savenow.openclaw_setup).
        or os.environ.get("OPENCLAW_STATE_DIR", "").strip()
        or Path("~/.openclaw/openclaw.json").expanduser().is_file()
    )
    if not configured:
        workspace = Path(args.workspace or os.environ.get("SAVENOW_WORKSPACE") or "~/.openclaw/workspace")
        timezone = args.timezone or os.environ.get("SAVENOW_TIMEZONE") or None
        return workspace.expanduser(), SearchOptions(timezone=timezone)
    from ..settings_cache import cached_view

    flags = {"workspace": args.workspace, "timezone": args.timezone}
    return cached_view("search", args.config, flags, _setup, _setup_to_json, _setup_from_json)


def _setup(settings: Settings) -> Setup:
    from ..search.options import options_from_settings

    return settings.workspace, options_from_settings(settings)


def _setup_to_json(setup: Setup) -> dict[str, Any] | None:
    from ..search.options import options_to_json

    options = options_to_json(setup[1])
    return None if options is None else {"workspace": str(setup[0]), "options": options}


def _setup_from_json(data: dict[str, Any]) -> Setup:
    from ..search.options import options_from_json

    return Path(data["workspace"]), options_from_json(data["options"])


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def search(args: argparse.Namespace) -> int:
    from ..errors import BadInputError
    from ..service.search import SearchService

    query = " ".join(args.query).strip()
    if not query:
        raise BadInputError(Text("cli.search_empty_query"))
    if args.max_results is not None and not 1 <= args.max_results <= 100:
        raise BadInputError(Text("cli.flag_range", flag="--max-results", low=1, high=100))
    if args.min_score is not None and not 0 <= args.min_score <= 1:
        raise BadInputError(Text("cli.flag_range", flag="--min-score", low=0, high=1))
    workspace, options = _options(args)
    if not options.enabled:
        from ..errors import SearchDisabledError

        raise SearchDisabledError(
            Text("cli.search_disabled"),
        )
    if options.provider != "none":  # the embeddings client logs its retries: not to stderr
        quiet_library_logs()
    response = SearchService(workspace, options).search(
        query, max_results=args.max_results, min_score=args.min_score
    )
    if args.json:
        _print_json(response.to_json())
        return 0
    if not response.results:
        print(text("cli.search_no_match", lang_of(args)))
    for hit in response.results:
        print(f"{hit.path}:{hit.start_line}-{hit.end_line}  score {hit.score:.2f}")
        for line in hit.snippet.split("\n"):
            print(f"    {line}")
    if response.fallback and response.fallback.get("reason") == "provider_error":
        print(
            text(
                "cli.search_keyword_only",
                lang_of(args),
                message=response.fallback_notice or response.fallback["message"],
            ),
            file=sys.stderr,
        )
    return 0


def get(args: argparse.Namespace) -> int:
    from ..errors import BadInputError
    from ..service.search import SearchService

    if args.from_line is not None and args.from_line < 1:
        raise BadInputError(Text("cli.flag_at_least_one", flag="--from"))
    if args.lines is not None and args.lines < 1:
        raise BadInputError(Text("cli.flag_at_least_one", flag="--lines"))
    workspace, options = _options(args)
    result = SearchService(workspace, options).get(args.path, from_line=args.from_line, lines=args.lines)
    if args.json:
        _print_json(result.to_json())
    else:
        sys.stdout.write(result.text if result.text.endswith("\n") or not result.text else result.text + "\n")
    return 0
