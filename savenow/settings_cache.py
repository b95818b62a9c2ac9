"""What a light command needs from the validated settings, kept across processes (DESIGN §11).

Validating the settings means importing pydantic and pydantic-settings and building the models:
≈ 0.1–0.3 s, paid by every ``savenow search`` an agent runs. Yet the answer only changes when one
of its inputs does, so a light command (``search``, ``get``, ``compact status --store``) stores
the few values it uses — its *view* of the settings, never a secret — under a key made of every
input :func:`savenow.config.load_settings` reads:

* the command's flags, ``HOME``, ``OPENCLAW_STATE_DIR`` and every ``SAVENOW_*`` variable (their
  values go into the key's hash only: a key in the environment never reaches the file);
* the config file it would read (``--config``, ``SAVENOW_CONFIG``, the default path) and
  ``<OpenClaw state>/openclaw.json``: path, size, mtime, ctime and inode;
* the modules that define the settings (an upgrade of savenow is a new key).

A hit skips pydantic altogether; a miss validates exactly as before — a bad config is the same
error, every time, and is never stored — and stores the view for next time. A file changed in the
last two seconds is not trusted to have a final mtime (a second write in the same clock tick may
keep it), so the view is not stored then. A view that would hold a secret (an embeddings key,
request headers) is not stored either: that command validates on each run. The cache is
``$XDG_CACHE_HOME/savenow/settings/`` (default ``~/.cache``): one small JSON file per key, written
atomically; a cache that cannot be read or written is simply not used.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .disk_cache import RACY_NS, FilesKey, store_bytes

if TYPE_CHECKING:
    from .config import Settings

__all__ = ["cache_dir", "cached_view"]

T = TypeVar("T")
VERSION = 1
_RACY_NS = RACY_NS  # read at each call, so a test can close the window
_NOT_SETTINGS = frozenset({"SAVENOW_NOW"})  # read by the clock, not by the settings
# What defines the settings and each view: an edit or an upgrade of any of them is a new key.
_SOURCES = (
    "config.py",
    "openclaw_setup.py",
    "settings_cache.py",
    "search/options.py",
    "cli/search.py",
    "cli/compaction.py",
)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path("~/.cache").expanduser()) / "savenow" / "settings"


def cached_view(
    view: str,
    config_file: str | None,
    flags: dict[str, Any],
    compute: Callable[[Settings], T],
    to_json: Callable[[T], dict[str, Any] | None],
    from_json: Callable[[dict[str, Any]], T],
) -> T:
    """``compute(load_settings(config_file, **flags))``, from the cache when its inputs are unchanged.

    ``to_json`` returns None for a value that must not be written down (it holds a secret)."""
    key, trusted = _key(view, config_file, flags)
    path = cache_dir() / f"{key}.json" if key else None
    if path is not None:
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            return from_json(stored["value"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
    from .config import load_settings

    value = compute(load_settings(config_file, **flags))
    if path is not None and trusted:
        data = to_json(value)
        if data is not None:
            _store(path, {"view": view, "value": data})
    return value


def _key(view: str, config_file: str | None, flags: dict[str, Any]) -> tuple[str | None, bool]:
    """(hash of every input, whether the files involved are old enough to trust); no key when
    the config file named cannot be found (load_settings then says so)."""
    key = FilesKey(_RACY_NS)
    key.add(VERSION, view, sorted((k, str(v)) for k, v in flags.items() if v is not None))
    key.add([os.environ.get(name) for name in ("HOME", "OPENCLAW_STATE_DIR", "SAVENOW_CONFIG")])
    key.add(sorted((k, v) for k, v in os.environ.items() if _is_setting(k)))
    config = _config_file(config_file)
    if config is False:
        return None, False
    state = os.environ.get("OPENCLAW_STATE_DIR", "").strip()
    openclaw = Path(state).expanduser() if state else Path("~/.openclaw").expanduser()
    here = Path(__file__).parent
    for path in (config, openclaw / "openclaw.json", *(here / name for name in _SOURCES)):
        if path is None:
            key.add(None)
            continue
        try:
            key.add_file(str(path), path)
        except OSError:
            key.add([str(path)])
    return key.digest(lambda parts: json.dumps(parts, ensure_ascii=False)), key.trusted


def _is_setting(name: str) -> bool:
    upper = name.upper()
    return upper.startswith("SAVENOW_") and upper not in _NOT_SETTINGS


def _config_file(explicit: str | None) -> Path | None | Literal[False]:
    """The YAML file load_settings would read (None: none); False when the one named is missing."""
    named = explicit or os.environ.get("SAVENOW_CONFIG")
    if named:
        path = Path(named).expanduser()
        return path if path.is_file() else False
    default = Path("~/.config/savenow/config.yaml").expanduser()  # = config.DEFAULT_CONFIG_PATH
    return default if default.is_file() else None


def _store(path: Path, data: dict[str, Any]) -> None:
    store_bytes(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))
