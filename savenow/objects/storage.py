"""What the object store keeps beside the objects, and how: its state folder and its JSON files.

Everything else (locks, exact reads, atomic writes, the change log and undo) is
:mod:`savenow.storage`'s, used as it is: an objects change is one journaled group
(:func:`savenow.storage.journal.write_group`), like any other logged write.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..storage import files, locks


def state_dir(workspace: Path) -> Path:
    """``<workspace>/.savenow/objects``: copies, trash and tombstones, never under ``memory/``."""
    return locks.state_dir(workspace) / "objects"


def copies_dir(workspace: Path) -> Path:
    """Where the bytes an objects change replaced are kept (deleted again by a purge)."""
    return state_dir(workspace) / "blobs"


def json_text(data: Any) -> str:
    """The text of a state JSON file (tombstones, pending, owners), as every writer renders it."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def read_json(path: Path, default: Any) -> Any:
    """The JSON a file holds, ``default`` when it does not exist; damaged JSON is refused (BadInputError),
    never replaced by the default — a tombstone file read as empty would let forgotten objects back."""
    data = files.read_json(path, path.name)
    return default if data is None else data


def write_json(path: Path, data: Any, workspace: Path | None = None) -> None:
    """Atomically (hold ``path``'s lock): for state no undo covers (pending previews, chat owners)."""
    files.atomic_write(path, json_text(data), workspace=workspace)


def read_json_lines(path: Path) -> list[dict[str, Any]]:
    """Every JSON object line; a torn or foreign line is skipped, never fatal."""
    records = []
    for line in (files.read_exact(path) or "").splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict):
            records.append(data)
    return records
