"""Which OpenClaw store an install holds: the file era (≤ 2026.7) or the SQLite era (2026.8+).

With ``sessions_dir`` set in savenow's settings, that folder is the store, as
before. Otherwise the state directory decides (OPENCLAW-STORE.md):

* ``<state>/agents/<agentId>/agent/openclaw-agent.sqlite`` → the SQLite store;
* ``<state>/agents/<agentId>/sessions/sessions.json`` → the file store;
* both (an install upgraded in place, its old files kept) → the database first,
  for the keys it has, and the files for the keys only they hold — the catalog's
  first-store-wins rule does exactly that.

The recorder's own store comes after these in every case (DESIGN §5.1).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .openclaw import STORE_FILE, OpenClawFileStore, agent_of_folder
from .sqlite_store import OpenClawSqliteStore, database_path
from .store import SessionStore

if TYPE_CHECKING:
    from ..config import Settings


def openclaw_stores(settings: Settings) -> list[SessionStore]:
    """OpenClaw's stores for these settings, in priority order (read only, always)."""
    setup = settings.openclaw
    files_dir = Path(settings.sessions_dir) if settings.sessions_dir is not None else None
    if setup is None or setup.sessions_dir_explicit:
        if files_dir is None:
            return []
        # Legacy keys belong to the agent the folder names, else to the configured agent.
        return [OpenClawFileStore(files_dir, agent_id=agent_of_folder(files_dir) or settings.agent_id)]
    stores: list[SessionStore] = []
    database = database_path(setup.state_dir, settings.agent_id)
    if database.is_file():
        stores.append(OpenClawSqliteStore(database, agent_id=settings.agent_id))
    if files_dir is not None and (not stores or (files_dir / STORE_FILE).is_file()):
        stores.append(OpenClawFileStore(files_dir, agent_id=settings.agent_id))
    return stores


def store_locations(settings: Settings) -> list[Path]:
    """Every place savenow reads sessions from, present or not (for "no store found" messages)."""
    places: list[Path] = []
    setup = settings.openclaw
    if setup is not None and not setup.sessions_dir_explicit:
        places.append(database_path(setup.state_dir, settings.agent_id))
    if settings.sessions_dir is not None:
        places.append(Path(settings.sessions_dir) / STORE_FILE)
    places.append(settings.effective_recorder_dir / STORE_FILE)
    return places


def any_store_present(settings: Settings) -> bool:
    return any(place.is_file() for place in store_locations(settings))
