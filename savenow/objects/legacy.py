"""The objects journal of earlier versions, read only: ``<workspace>/.savenow/objects/journal.jsonl``.

Before objects changes went into the shared change log (:mod:`savenow.storage.journal`), the store
kept a log of its own: one ``{"type": "change", …}`` line per change (each file's before/after
hash, the before bytes in ``blobs/<sha>.md``, tombstone edits, trash copies) and
``{"type": "undo", "undoes": id}`` lines. Nothing writes it any more. Its newest change stays
undoable until the shared log holds an objects change (which is newer); undoing it is a group in
the shared log whose records undo ``legacy:<id>``, so it is undone once, like any change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .storage import read_json_lines, state_dir

JOURNAL_NAME = "journal.jsonl"
UNDO_PREFIX = "legacy:"


@dataclass
class LegacyChange:
    id: str
    op: str
    files: list[dict[str, Any]]  # {"path": relative, "before": sha | None, "after": sha | None, "purged"?}
    tombstones_added: list[dict[str, Any]] = field(default_factory=list)
    tombstones_removed: list[dict[str, Any]] = field(default_factory=list)
    trash: list[str] = field(default_factory=list)  # relative to the state folder

    @property
    def undo_id(self) -> str:
        return UNDO_PREFIX + self.id

    @property
    def purged(self) -> bool:
        return any(entry.get("purged") for entry in self.files)


def journal_path(workspace: Path) -> Path:
    return state_dir(workspace) / JOURNAL_NAME


def blob_path(workspace: Path, digest: str) -> Path:
    return state_dir(workspace) / "blobs" / f"{digest}.md"


def changes(workspace: Path) -> list[LegacyChange]:
    """Every change the old log recorded with at least one file, oldest first."""
    found = []
    for record in read_json_lines(journal_path(workspace)):
        files = record.get("files")
        if record.get("type") != "change" or not isinstance(files, list) or not files:
            continue
        found.append(
            LegacyChange(
                id=str(record.get("id")),
                op=str(record.get("op") or "change"),
                files=[
                    entry for entry in files if isinstance(entry, dict) and isinstance(entry.get("path"), str)
                ],
                tombstones_added=_dicts(record.get("tombstones_added")),
                tombstones_removed=_dicts(record.get("tombstones_removed")),
                trash=[str(rel) for rel in record.get("trash") or []],
            )
        )
    return found


def last_change(workspace: Path, undone_elsewhere: set[str]) -> LegacyChange | None:
    """The old log's newest change, unless it was undone (in the old log or, ``legacy:<id>``, the shared one)."""
    found = changes(workspace)
    if not found:
        return None
    undone = {
        str(r.get("undoes")) for r in read_json_lines(journal_path(workspace)) if r.get("type") == "undo"
    }
    last = found[-1]
    return None if last.id in undone or last.undo_id in undone_elsewhere else last


def blobs_of(workspace: Path, *, path: str | None = None, trash_of: str | None = None) -> list[Path]:
    """Copies the old log kept: of the object at ``path``, or of every change that trashed ``trash_of``."""
    found = []
    for change in changes(workspace):
        trashed = trash_of is not None and any(trash_of in rel for rel in change.trash)
        for entry in change.files:
            if entry.get("before") and (trashed or (path is not None and entry["path"] == path)):
                found.append(blob_path(workspace, str(entry["before"])))
    return found


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
