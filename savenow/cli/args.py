"""What every ``savenow`` command reads from its flags: settings, the scope, ids, the language.

Imported by each command module of this package; :mod:`savenow.config` (pydantic) is loaded only
when a command asks for settings or a scope, so the fast paths (``search``, ``compact status --store``) stay fast.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import BadInputError
from ..messages import Lang, Text

if TYPE_CHECKING:
    from ..access import Scope
    from ..config import Settings


def settings_from_args(args: argparse.Namespace, *, require_workspace: bool = True) -> Settings:
    """Settings from the command's flags; a missing workspace is refused unless the command can do without."""
    from ..config import load_settings_from_args

    settings = load_settings_from_args(args)
    if require_workspace:
        _require_workspace(settings.workspace)
    return settings


def _require_workspace(workspace: Path) -> None:
    """A missing workspace is a typo, not a request to create one (issue 10 item 8)."""
    if not workspace.is_dir():
        from ..errors import ConfigError

        raise ConfigError(Text("config.no_workspace", workspace=workspace))


def scope_from_args(args: argparse.Namespace) -> Scope:
    """The scope a chat-equivalent command names (--chat-id / --thread-id), in the CLI's language."""
    from ..access import Scope

    chat_id = id_flag(getattr(args, "chat_id", None), "--chat-id")
    thread_id = id_flag(getattr(args, "thread_id", None), "--thread-id")
    return Scope(chat_id=chat_id, thread_id=thread_id, lang=lang_of(args))


def lang_of(args: argparse.Namespace) -> Lang:
    """The CLI speaks English unless ``--lang zh``."""
    return "zh" if str(getattr(args, "lang", None) or "en").startswith("zh") else "en"


def id_flag(value: str | None, flag: str) -> str | None:
    if value is None:
        return None
    text = value.strip()
    if not text.lstrip("-").isdigit() or len(text) > 32:
        raise BadInputError(Text("cli.bad_id_flag", flag=flag, value=value))
    return text


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def quiet_library_logs() -> None:
    """Log records are for the bot's log, not the CLI's stderr (which holds one line per refusal).

    Without a handler, Python prints warnings to stderr ("lastResort"): an LLM retry would add lines.
    A command that may run nothing that logs (``search`` without an embeddings provider, ``get``)
    calls this itself when it does, so that it does not import :mod:`logging` for nothing.
    """
    import logging

    logger = logging.getLogger("savenow")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
