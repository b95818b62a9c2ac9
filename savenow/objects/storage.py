"""The only module of ``savenow.objects`` that touches savenow's storage primitives.

Everything the object store needs from :mod:`savenow.storage` (locks, exact reads, atomic
writes, deletes, hashes) goes through these few functions.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..storage import files, locks


def state_dir(workspace: Path) -> Path:
    """``<workspace>/.savenow/objects``: history, trash and tombstones, never under ``memory/``."""
    return locks.state_dir(workspace) / "objects"


@contextmanager
def locked(target: Path, workspace: Path) -> Iterator[None]:
    with locks.file_lock(target, workspace):
        yield


def read_text(path: Path) -> str | None:
    return files.read_exact(path)


def write_text(path: Path, text: str) -> None:
    files.atomic_write(path, text)


def delete(path: Path) -> bool:
    return files.delete_file(path)


def sha256(text: str | None) -> str | None:
    return files.sha256_text(text)


def append_json_line(path: Path, record: dict[str, Any]) -> None:
    """Append one journal line durably (the caller holds the store lock)."""
    import os

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def read_json_lines(path: Path) -> list[dict[str, Any]]:
    """Every JSON object line; a torn or foreign line is skipped, never fatal."""
    records = []
    for line in (read_text(path) or "").splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict):
            records.append(data)
    return records


def read_json(path: Path, default: Any) -> Any:
    """The JSON a file holds, ``default`` when it does not exist; damaged JSON is refused (BadInputError),
    never replaced by the default — a tombstone file read as empty would let forgotten objects back."""
    data = files.read_json(path, path.name)
    return default if data is None else data


def write_json(path: Path, data: Any) -> None:
    write_text(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
