"""Zero-flag setup on an OpenClaw install: where its state, workspace and time zone are.

OpenClaw keeps its state in ``OPENCLAW_STATE_DIR`` (default ``~/.openclaw``) and
its configuration in ``<state>/openclaw.json`` (JSON5). When savenow's own
settings (flags, ``SAVENOW_*`` environment, the YAML file) leave them unset:

* **workspace** — the agent's entry (``agents.list[]`` with its ``id``, or
  ``agents.entries.<id>``) names one; else a sole agent (or an install without a
  roster) uses ``agents.defaults.workspace``, else ``<state>/workspace``; in a
  roster of several agents an entry without one uses
  ``<agents.defaults.workspace>/<id>`` when that root is set, else
  ``<state>/workspace-<id>`` (OpenClaw's own rule, docs "Agent workspace");
* **time zone** — the agent entry's ``userTimezone``, else
  ``agents.defaults.userTimezone`` (the zone OpenClaw dates ``memory/YYYY-MM-DD.md``
  in, so a note lands in the file OpenClaw's own flush would use), else the host's;
* **sessions** — ``<state>/agents/<agentId>/…``; :mod:`savenow.sessions.era`
  picks the file or SQLite store found there.

What was used, and why, is kept in :class:`OpenClawSetup` (``settings.openclaw``)
so ``savenow list`` can say it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .messages import Text

STATE_DIR_ENV = "OPENCLAW_STATE_DIR"
CONFIG_NAME = "openclaw.json"


@dataclass(frozen=True)
class OpenClawSetup:
    state_dir: Path
    config_path: Path | None  # openclaw.json when it exists and was read
    workspace_from: Text  # setup.from.*: savenow settings | openclaw.json <key> | OpenClaw default
    timezone_from: Text  # setup.from.*: savenow settings | openclaw.json <key> | host
    sessions_dir_explicit: bool  # sessions_dir came from savenow's settings: no era detection


def openclaw_state_dir() -> Path:
    configured = os.environ.get(STATE_DIR_ENV, "").strip()
    return Path(configured).expanduser() if configured else Path("~/.openclaw").expanduser()


@dataclass(frozen=True)
class OpenClawDefaults:
    """What the OpenClaw install supplies for the settings savenow's own sources left unset (None: keep)."""

    workspace: Path | None
    timezone: str | None
    sessions_dir: Path | None
    setup: OpenClawSetup


def openclaw_defaults(given: set[str], agent_id: str) -> OpenClawDefaults:
    """Workspace, timezone and sessions_dir from the OpenClaw install, for those not in ``given``."""
    state = openclaw_state_dir()
    need_config = "workspace" not in given or "timezone" not in given
    config_path = state / CONFIG_NAME
    config = _read_config(config_path) if need_config and config_path.is_file() else None
    agents = _mapping(config, "agents")
    defaults = _mapping(agents, "defaults")
    roster = _roster(agents)
    entry = roster.get(agent_id, {})

    workspace: Path | None = None
    workspace_from = Text("setup.from.savenow")
    if "workspace" not in given:
        workspace, workspace_from = _workspace(state, agent_id, defaults, roster, entry)
    timezone: str | None = None
    timezone_from = Text("setup.from.savenow" if "timezone" in given else "setup.from.host")
    if "timezone" not in given:
        for where, value in (
            (f"agent {agent_id}", entry.get("userTimezone")),
            ("agents.defaults", defaults.get("userTimezone")),
        ):
            if isinstance(value, str) and value.strip():
                timezone = _checked_zone(value.strip(), config_path, f"{where}.userTimezone")
                timezone_from = Text("setup.from.openclaw_key", key=f"{where}.userTimezone")
                break
    explicit_sessions = "sessions_dir" in given
    setup = OpenClawSetup(
        state_dir=state,
        config_path=config_path if config is not None else None,
        workspace_from=workspace_from,
        timezone_from=timezone_from,
        sessions_dir_explicit=explicit_sessions,
    )
    sessions_dir = None if explicit_sessions else state / "agents" / agent_id / "sessions"
    return OpenClawDefaults(workspace=workspace, timezone=timezone, sessions_dir=sessions_dir, setup=setup)


def _workspace(
    state: Path,
    agent_id: str,
    defaults: dict[str, Any],
    roster: dict[str, dict[str, Any]],
    entry: dict[str, Any],
) -> tuple[Path, Text]:
    own = _path_value(entry.get("workspace"), state)
    if own is not None:
        return own, Text("setup.from.openclaw_key", key=f"agent {agent_id}.workspace")
    root = _path_value(defaults.get("workspace"), state)
    if len(roster) > 1:
        if root is not None:
            return root / agent_id, Text(
                "setup.from.openclaw_key", key=f"agents.defaults.workspace/{agent_id}"
            )
        return state / f"workspace-{agent_id}", Text("setup.from.openclaw_default_many")
    if root is not None:
        return root, Text("setup.from.openclaw_key", key="agents.defaults.workspace")
    return state / "workspace", Text("setup.from.openclaw_default")


def _checked_zone(name: str, path: Path, key: str) -> str:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(Text("openclaw_setup.unknown_timezone", path=path, key=key, name=name)) from exc
    return name


def _read_config(path: Path) -> dict[str, Any]:
    import json5

    try:
        data = json5.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(Text("openclaw_setup.cannot_read", path=path, reason=exc.strerror)) from exc
    except ValueError as exc:
        raise ConfigError(Text("openclaw_setup.bad_json5", path=path, reason=exc)) from exc
    if not isinstance(data, dict):
        raise ConfigError(Text("openclaw_setup.not_object", path=path))
    return data


def _mapping(parent: Any, key: str) -> dict[str, Any]:
    value = parent.get(key) if isinstance(parent, dict) else None
    return value if isinstance(value, dict) else {}


def _roster(agents: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Agent entries by id, from ``agents.list[]`` (array of {id, …}) or ``agents.entries`` ({id: {…}})."""
    roster: dict[str, dict[str, Any]] = {}
    listed = agents.get("list")
    if isinstance(listed, list):
        for item in listed:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                roster.setdefault(item["id"], item)
    entries = agents.get("entries")
    if isinstance(entries, dict):
        for agent_id, item in entries.items():
            if isinstance(item, dict):
                roster.setdefault(str(agent_id), item)
    return roster


def _path_value(value: Any, state: Path) -> Path | None:
    if not isinstance(value, str) or not value.strip():
        return None
    path = Path(value.strip()).expanduser()
    return path if path.is_absolute() else state / path
