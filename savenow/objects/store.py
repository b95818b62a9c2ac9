"""The object store (DESIGN §14): upsert, correct, forget, undo, maintain — every write locked,
re-read under the lock and journaled.

Layout::

    <workspace>/memory/objects/<type>/<name>.md       the objects (OpenClaw's search indexes them)
    <workspace>/.savenow/journal.jsonl                the shared change log: one group per change
    <workspace>/.savenow/objects/blobs/<sha>.before   the bytes a change replaced (what undo puts back)
    <workspace>/.savenow/objects/trash/…              forgotten files (``--purge`` deletes them)
    <workspace>/.savenow/objects/tombstones.json      hashes of forgotten identities, never their text
    <workspace>/.savenow/objects/journal.jsonl        the log of earlier versions, read only (:mod:`.legacy`)

A command works out every file it changes first, then writes them as one journaled group
(:func:`savenow.storage.journal.write_group`: copies of the bytes before, every intent, the atomic
writes, every commit), so a kill at any point leaves a log undo can trust. ``objects undo`` takes
back the newest objects change, whole and byte for byte, once; ``savenow undo`` never touches objects.

One lock guards the whole store, so concurrent upserts from several processes
serialize and each one re-reads what the previous one wrote (no lost update).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..clock import Clock
from ..errors import ObjectNotFoundError, UndoRefusedError
from ..messages import Text
from ..storage import journal
from ..storage.files import delete_file, read_exact, sha256_text
from ..storage.journal import OBJECTS_KIND, FileChange, WriteRecord
from ..storage.locks import file_lock
from ..text.identifiers import digit_tokens
from ..text.normalize import similarity
from . import files, legacy, storage
from .model import (
    LIST_FIELDS,
    MemoryObject,
    identity_hash,
    identity_keys,
    near_name,
    norm_name,
)

PAUSE_AFTER_DAYS = 14
ARCHIVE_AFTER_DAYS = 60
CONFIDENCE_HALF_LIFE_DAYS = 180.0
_STATUS_RANK = {"active": 0, "paused": 1, "archived": 2}
_SLUG_JUNK = re.compile(r"[^\w-]+")


@dataclass
class Stored:
    """An object file as found on disk."""

    path: Path
    text: str
    parsed: files.ObjectFile

    @property
    def obj(self) -> MemoryObject:
        return self.parsed.obj

    @property
    def id(self) -> str:
        return self.parsed.id


@dataclass
class Result:
    op: str  # create | update | skip | near_match | forgotten | correct | forget | purge
    id: str | None = None
    path: str | None = None
    label: str = ""
    candidate: str | None = None  # near_match: the stored name it may mean
    changed: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"op": self.op, "id": self.id, "path": self.path, "label": self.label}
        if self.candidate:
            data["candidate"] = self.candidate
        if self.changed:
            data["changed"] = self.changed
        return data


@dataclass
class _Change:
    """What one command will change: each file's new text (None: deleted), written at the end as one group."""

    op: str
    writes: dict[Path, FileChange] = field(default_factory=dict)
    tombstones_changed: bool = False

    def write(self, path: Path, after: str | None, *, keep_copy: bool = True) -> None:
        self.writes[path] = FileChange(path=path, after=after, keep_copy=keep_copy)

    @property
    def object_files(self) -> int:
        return len(self.writes)


def effective_confidence(obj: MemoryObject, confirmed: str | None, now: datetime) -> float | None:
    """Confidence decays with time since the object was last confirmed; files are never rewritten for it."""
    if obj.confidence is None:
        return None
    when = _parse_time(confirmed)
    if when is None:
        return obj.confidence
    days = max(0.0, (now - when).total_seconds() / 86400)
    return round(obj.confidence * 0.5 ** (days / CONFIDENCE_HALF_LIFE_DAYS), 3)


def _parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.astimezone()


def same_note(a: MemoryObject, b: MemoryObject) -> bool:
    """Two saved notes about the same thing: a shared identifier (an address, a code, a number
    with separators) or nearly the same text."""
    ids_a = digit_tokens(a.summary, min_length=4, years=False)
    ids_b = digit_tokens(f"{b.summary} {b.detail or ''}")
    if ids_a & ids_b:
        return True
    return similarity(a.summary, b.summary) >= 0.75


def shingles(text: str, *, fold_script: bool = True) -> set[str]:
    """Hashed character trigrams of normalized text: lets a tombstone recognise a re-worded
    saved note without keeping a word of it."""
    compact = norm_name(text, fold_script=fold_script)
    grams = {compact[i : i + 3] for i in range(max(1, len(compact) - 2))}
    return {hashlib.sha256(g.encode("utf-8")).hexdigest()[:12] for g in grams if g}


class ObjectStore:
    def __init__(self, workspace: Path, clock: Clock | None = None) -> None:
        self.workspace = Path(workspace)
        self.clock = clock or Clock.from_env()
        self.root = self.workspace / "memory" / "objects"
        self.state = storage.state_dir(self.workspace)
        self.copies = storage.copies_dir(self.workspace)
        self.tombstone_file = self.state / "tombstones.json"
        self._lock_target = self.state / "store"

    # -- reading --------------------------------------------------------------------------------

    def load(self) -> list[Stored]:
        """Every object file under memory/objects (any name, any folder: identity is in the file)."""
        found: list[Stored] = []
        if not self.root.is_dir():
            return found
        for path in sorted(self.root.rglob("*.md")):
            if not path.is_file():
                continue
            text = read_exact(path)
            parsed = files.parse(text) if text is not None else None
            if parsed is not None and text is not None:
                found.append(Stored(path=path, text=text, parsed=parsed))
        return found

    def tombstones(self) -> list[dict[str, Any]]:
        data = storage.read_json(self.tombstone_file, {})
        items = data.get("tombstones", []) if isinstance(data, dict) else []
        return [item for item in items if isinstance(item, dict)]

    def find(self, ref: str, stored: list[Stored] | None = None) -> Stored:
        """An object by id, or by name / title / ``category/key`` / alias."""
        stored = self.load() if stored is None else stored
        key = norm_name(ref)
        for item in stored:
            if item.id == ref.strip():
                return item
        for item in stored:
            names = [item.obj.label, *item.obj.aliases, item.obj.key or ""]
            if key and any(norm_name(n) == key for n in names):
                return item
        raise ObjectNotFoundError(Text("objects.no_such_object", ref=ref))

    def match(
        self, obj: MemoryObject, stored: list[Stored], *, same_saved_note: bool = False
    ) -> Stored | None:
        """The stored object with the same identity (name or alias, or category + key, or a saved
        note's title); with ``same_saved_note`` (extraction), also a saved note that holds the same
        identifiers or nearly the same text — the user restating it is a skip, not a new note."""
        keys = set(identity_keys(obj))
        for item in stored:
            if item.obj.type == obj.type and keys & set(identity_keys(item.obj)):
                return item
        if obj.type == "saved" and same_saved_note:
            return next(
                (item for item in stored if item.obj.type == "saved" and same_note(obj, item.obj)), None
            )
        return None

    def near(self, obj: MemoryObject, stored: list[Stored]) -> Stored | None:
        """A stored relationship/topic whose name is another form of this one (never merged silently)."""
        if obj.type not in ("relationship", "topic") or not obj.name:
            return None
        for item in stored:
            if item.obj.type == obj.type and any(
                near_name(obj.name, n) for n in [item.obj.name or "", *item.obj.aliases]
            ):
                return item
        return None

    def tombstoned(
        self, obj: MemoryObject, tombstones: list[dict[str, Any]] | None = None
    ) -> dict[str, Any] | None:
        tombstones = self.tombstones() if tombstones is None else tombstones
        # A tombstone written before Traditional characters were folded holds the hashes of the
        # name as written: both forms are asked (they are the same for any other name).
        forms = (True, False)
        hashes = {identity_hash(k) for fold in forms for k in identity_keys(obj, fold_script=fold)}
        said = f"{obj.title or ''} {obj.summary}"
        grams = [shingles(said, fold_script=fold) for fold in forms] if obj.type == "saved" else []
        for stone in tombstones:
            if stone.get("type") != obj.type:
                continue
            if hashes & set(stone.get("hashes", [])):
                return stone
            theirs = set(stone.get("shingles", []))
            if theirs and any(ours and len(ours & theirs) / len(ours | theirs) >= 0.5 for ours in grams):
                return stone
        return None

    # -- writing --------------------------------------------------------------------------------

    def upsert(
        self,
        objects: list[MemoryObject],
        *,
        remember: bool = False,
        allow_near: bool = False,
        correct: bool = False,
    ) -> list[Result]:
        """Create or update each object by identity. ``remember``: an explicit "remember this",
        which alone lifts a tombstone. ``allow_near``: the user confirmed a near-match (the
        object names the stored name and carries the variant as an alias) or wants a new one.
        ``correct``: the given values replace the stored ones, which become superseded."""
        with self._locked():
            stored = self.load()
            stones = self.tombstones()
            change = _Change(op="correct" if correct else "upsert")
            results = []
            for obj in objects:
                results.append(self._upsert_one(obj, stored, stones, change, remember, allow_near, correct))
            self._commit(change, stones)
        return results

    def _upsert_one(
        self,
        obj: MemoryObject,
        stored: list[Stored],
        stones: list[dict[str, Any]],
        change: _Change,
        remember: bool,
        allow_near: bool,
        correct: bool,
    ) -> Result:
        existing = self.match(obj, stored)
        if existing is None:
            stone = self.tombstoned(obj, stones)
            if stone is not None:
                if not remember:
                    return Result(op="forgotten", label=obj.label)
                stones.remove(stone)
                change.tombstones_changed = True
            candidate = None if allow_near else self.near(obj, stored)
            if candidate is not None:
                return Result(op="near_match", id=candidate.id, label=obj.label, candidate=candidate.obj.label,
                              path=self._rel(candidate.path))  # fmt: skip
            created = self._create(obj, stored)
            change.write(created.path, created.text)
            stored.append(created)
            return Result(op="create", id=created.id, path=self._rel(created.path), label=obj.label)
        text, changed = self._merged_text(existing, obj, correct)
        if text == existing.text:
            return Result(op="skip", id=existing.id, path=self._rel(existing.path), label=existing.obj.label)
        change.write(existing.path, text)
        reparsed = files.parse(text)
        assert reparsed is not None
        stored[stored.index(existing)] = Stored(path=existing.path, text=text, parsed=reparsed)
        op = "correct" if correct else "update"
        return Result(
            op=op, id=existing.id, path=self._rel(existing.path), label=existing.obj.label, changed=changed
        )

    def _now(self) -> str:
        return self.clock.now().isoformat(timespec="seconds")

    def _create(self, obj: MemoryObject, stored: list[Stored]) -> Stored:
        now = self._now()
        digest = hashlib.sha256(f"{identity_keys(obj)[0]}|{now}".encode()).hexdigest()[:8]
        meta: dict[str, Any] = {"id": f"{obj.type}-{digest}", "type": obj.type}
        for name in ("category", "key", "name", "aliases", "relation", "saved_kind", "title"):
            meta[name] = getattr(obj, name)
        meta["status"] = obj.status or "active"
        meta.update(confidence=obj.confidence, created=now, updated=now, confirmed=now, rev=1)
        meta.update(summary=obj.summary, detail=obj.detail, sources=obj.sources)
        parsed = files.ObjectFile(meta=meta, body=files.new_body(obj))
        text = parsed.render()
        path = self._new_path(obj, {s.path for s in stored})
        reparsed = files.parse(text)
        assert reparsed is not None
        return Stored(path=path, text=text, parsed=reparsed)

    def _new_path(self, obj: MemoryObject, taken: set[Path]) -> Path:
        if obj.type == "self":
            stem = f"{obj.category}.{obj.key}"
        else:
            stem = _SLUG_JUNK.sub("-", obj.label.strip().casefold()).strip("-_")[:60] or obj.type
        folder = self.root / obj.type
        path, number = folder / f"{stem}.md", 2
        while path in taken or path.exists():
            path, number = folder / f"{stem}-{number}.md", number + 1
        return path

    def _merged_text(self, existing: Stored, new: MemoryObject, correct: bool) -> tuple[str, list[str]]:
        parsed = existing.parsed
        meta = dict(parsed.meta)
        old = existing.obj
        superseded = list(parsed.superseded)
        dead = {(s.get("field"), norm_name(str(s.get("value", "")))) for s in superseded}
        now = self._now()
        changed: list[str] = []
        for name in ("summary", "detail", "relation", "saved_kind", "status"):
            value = getattr(new, name)
            if value is None or value == "" or value == meta.get(name):
                continue
            if (name, norm_name(value)) in dead and not correct:
                continue  # an older chat re-read: a corrected value never comes back
            if correct and meta.get(name):
                superseded.append({"field": name, "value": meta[name], "at": now})
            meta[name] = value
            changed.append(name)
        if old.type == "topic" and new.status is None and changed and meta.get("status") != "active":
            meta["status"] = "active"  # activity reactivates a paused or archived topic
            changed.append("status")
        body = parsed.body
        for name in LIST_FIELDS:
            incoming = getattr(new, name)
            current = getattr(old, name)
            if correct and incoming:
                gone = [item for item in current if norm_name(item) not in {norm_name(i) for i in incoming}]
                for item in gone:
                    superseded.append({"field": name, "value": item, "at": now})
                body = files.drop_bullets(body, name, gone)
                current = [item for item in current if item not in gone]
            have = {norm_name(item) for item in current}
            fresh = []
            for item in incoming:
                key = norm_name(item)
                if key in have or ((name, key) in dead and not correct):
                    continue
                have.add(key)
                fresh.append(item)
            if fresh or (correct and incoming and body is not parsed.body):
                changed.append(name)
            body = files.add_bullets(body, name, fresh, parsed.newline)
        aliases = list(old.aliases)
        for alias in [
            *new.aliases,
            *([new.name] if new.name and norm_name(new.name) != norm_name(old.name or "") else []),
        ]:
            if norm_name(alias) not in {norm_name(a) for a in [old.name or "", *aliases]}:
                aliases.append(alias)
                changed.append("aliases")
        meta["aliases"] = aliases
        sources = list(meta.get("sources") or [])
        for ref in new.sources:
            if ref not in sources:
                sources.append(ref)
        if changed:
            meta["sources"] = sources
            if new.confidence is not None:
                meta["confidence"] = new.confidence
            meta["superseded"] = superseded
            meta["updated"] = now
            meta["confirmed"] = now
            meta["rev"] = int(meta.get("rev") or 0) + 1
        else:
            return existing.text, []
        merged = files.ObjectFile(meta=meta, body=body, bom=parsed.bom, newline=parsed.newline)
        return merged.render(), sorted(set(changed), key=changed.index)

    def forget(self, ref: str, *, purge: bool = False) -> Result:
        """Move the object to trash and leave a tombstone (hashes only); ``purge`` deletes the trash copy."""
        with self._locked():
            stored = self.load()
            item = self.find(ref, stored)
            stones = self.tombstones()
            stamp = self.clock.now().strftime("%Y%m%dT%H%M%S")
            trash = self.state / "trash" / f"{item.id}.{stamp}.md"
            change = _Change(op="purge" if purge else "forget")
            stone = {
                "type": item.obj.type,
                "hashes": sorted({identity_hash(k) for k in identity_keys(item.obj)}),
                "forgotten_at": self._now(),
            }
            if item.obj.type == "saved":
                stone["shingles"] = sorted(shingles(f"{item.obj.title or ''} {item.obj.summary}"))
            stones.append(stone)
            change.tombstones_changed = True
            if purge:
                change.write(item.path, None, keep_copy=False)
                for copy in self._trash_copies(item.id):
                    change.write(copy, None, keep_copy=False)
            else:
                change.write(trash, item.text)
                change.write(item.path, None)
            self._commit(change, stones)
            if purge:
                self._delete_copies({item.path})
        return Result(op=change.op, id=item.id, path=self._rel(item.path), label=item.obj.label)

    def _trash_copies(self, object_id: str) -> list[Path]:
        trash = self.state / "trash"
        return sorted(trash.glob(f"{object_id}.*.md")) if trash.is_dir() else []

    def _delete_copies(self, paths: set[Path], *, trash_of: str | None = None) -> None:
        """No plaintext of a purged object stays behind: every copy of its bytes an earlier change
        kept goes (those changes can no longer be undone, which is the point)."""
        wanted = {str(path.absolute()) for path in paths}
        records = self._records()
        if trash_of is not None:  # the forget that trashed it names the object's own path
            trash = str((self.state / "trash").absolute())
            groups = {
                r.group for r in records if r.memory_path.startswith(trash) and trash_of in r.memory_path
            }
            wanted |= {r.memory_path for r in records if r.group in groups and self._is_object(r.memory_path)}
        copies = {Path(r.before_copy) for r in records if r.before_copy and r.memory_path in wanted}
        for rel in {self._rel(Path(path)) for path in wanted}:
            copies.update(legacy.blobs_of(self.workspace, path=rel, trash_of=trash_of))
        for copy in copies:
            with file_lock(copy, self.workspace):
                delete_file(copy)

    def purge_trash(self, ref: str) -> Result:
        """``forget ID --purge`` on an object already forgotten: delete its trash copy."""
        with self._locked():
            hits = self._trash_copies(ref.strip())
            if not hits:
                raise ObjectNotFoundError(Text("objects.not_found_for_purge", ref=ref))
            change = _Change(op="purge")
            for path in hits:
                change.write(path, None, keep_copy=False)
            self._commit(change, None)
            self._delete_copies(set(), trash_of=ref.strip())
        return Result(op="purge", id=ref.strip(), label=ref.strip())

    def maintain(self) -> dict[str, Any]:
        """Topics idle ≥14 days → paused, ≥60 → archived; vanished file sources marked. Idempotent."""
        now = self.clock.now()
        report: dict[str, Any] = {"paused": [], "archived": [], "vanished": [], "restored_sources": []}
        with self._locked():
            stored = self.load()
            change = _Change(op="maintain")
            for item in stored:
                meta = dict(item.parsed.meta)
                touched = False
                if item.obj.type == "topic":
                    touched |= self._idle_status(item, meta, now, report)
                touched |= self._check_sources(item, meta, now, report)
                if touched:
                    meta["updated"] = self._now()  # never `confirmed`: decay must not reset itself
                    meta["rev"] = int(meta.get("rev") or 0) + 1
                    parsed = item.parsed
                    text = files.ObjectFile(
                        meta=meta, body=parsed.body, bom=parsed.bom, newline=parsed.newline
                    ).render()
                    change.write(item.path, text)
            self._commit(change, None)
        report["changed"] = change.object_files
        return report

    def _idle_status(self, item: Stored, meta: dict[str, Any], now: datetime, report: dict[str, Any]) -> bool:
        last = _parse_time(meta.get("confirmed")) or _parse_time(meta.get("created"))
        if last is None:
            return False
        idle = now - last
        target = None
        if idle >= timedelta(days=ARCHIVE_AFTER_DAYS):
            target = "archived"
        elif idle >= timedelta(days=PAUSE_AFTER_DAYS):
            target = "paused"
        status = str(meta.get("status") or "active")
        if target is None or _STATUS_RANK.get(status, 0) >= _STATUS_RANK[target]:
            return False
        meta["status"] = target
        report[target].append(item.id)
        return True

    def _check_sources(
        self, item: Stored, meta: dict[str, Any], now: datetime, report: dict[str, Any]
    ) -> bool:
        sources = meta.get("sources") or []
        touched = False
        fresh = []
        for ref in sources:
            if not isinstance(ref, dict) or not isinstance(ref.get("path"), str):
                fresh.append(ref)
                continue
            ref = dict(ref)
            path = Path(ref["path"]).expanduser()
            exists = (path if path.is_absolute() else self.workspace / path).exists()
            if not exists and "vanished" not in ref:
                ref["vanished"] = now.date().isoformat()
                report["vanished"].append(item.id)
                touched = True
            elif exists and "vanished" in ref:
                del ref["vanished"]
                report["restored_sources"].append(item.id)
                touched = True
            fresh.append(ref)
        meta["sources"] = fresh
        return touched

    def last_change_id(self) -> str | None:
        """The id of the change :meth:`undo` would take back now (None: nothing to undo)."""
        records = self._records()
        group, members = self._newest_group(records)
        if group is not None:
            return group if members else None
        old = legacy.last_change(self.workspace, _undone(records))
        return old.id if old is not None else None

    def undo(self) -> dict[str, Any]:
        """Put back, byte for byte, what the last change replaced, while nothing touched it since."""
        with self._locked():
            records = self._records()
            group, members = self._newest_group(records)
            if group is None:  # no change in the shared log yet: the old log's last one, if any
                old = legacy.last_change(self.workspace, _undone(records))
                if old is None:
                    raise UndoRefusedError(Text("objects.nothing_to_undo"))
                return self._undo_legacy(old)
            if not members:
                raise UndoRefusedError(Text("objects.nothing_to_undo"))
            if members[0].action == "purge":
                raise UndoRefusedError(Text("objects.cannot_undo_purge"))
            for member in reversed(members):
                self._check_undoable(member)
            journal.undo_group(self.workspace, group, time=self._now())
        return {
            "undid": members[0].action,
            "files": [self._rel(Path(m.memory_path)) for m in members if self._is_object(m.memory_path)],
        }

    def _check_undoable(self, member: WriteRecord) -> None:
        """The store's own refusals, before the storage layer checks the same under each file's lock."""
        path = Path(member.memory_path)
        if (sha256_text(read_exact(path)) or journal.DELETED) != member.after_sha256:
            raise UndoRefusedError(Text("objects.undo_changed", path=self._rel(path)))
        if member.before_sha256 is not None:
            copy = read_exact(Path(member.before_copy)) if member.before_copy else None
            if sha256_text(copy) != member.before_sha256:
                raise UndoRefusedError(Text("objects.undo_purged", path=self._rel(path)))

    def _undo_legacy(self, old: legacy.LegacyChange) -> dict[str, Any]:
        """Undo a change the old log recorded: the same checks, written as one group of the shared log."""
        if old.purged:
            raise UndoRefusedError(Text("objects.cannot_undo_purge"))
        change = _Change(op=old.op)
        for entry in old.files:
            path = self.workspace / entry["path"]
            # at its before-state already: an undo a kill cut short put it back (writing it again is a no-op)
            if sha256_text(read_exact(path)) not in (entry.get("after"), entry.get("before")):
                raise UndoRefusedError(Text("objects.undo_changed", path=entry["path"]))
            before = None
            if entry.get("before"):
                before = read_exact(legacy.blob_path(self.workspace, str(entry["before"])))
                if before is None:
                    raise UndoRefusedError(Text("objects.undo_purged", path=entry["path"]))
            change.write(path, before)
        stones = self.tombstones()
        for stone in old.tombstones_added:
            if stone in stones:
                stones.remove(stone)
        stones.extend(s for s in old.tombstones_removed if s not in stones)
        change.tombstones_changed = bool(old.tombstones_added or old.tombstones_removed)
        for rel in old.trash:
            change.write(self.state / rel, None)
        self._commit(change, stones, undoes=old.undo_id)
        return {"undid": old.op, "files": [entry["path"] for entry in old.files]}

    # -- journal ----------------------------------------------------------------------------------

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """The store lock; a change a kill interrupted is settled first, by what the files hold."""
        with file_lock(self._lock_target, self.workspace):
            journal.settle_open(self.workspace, frozenset({OBJECTS_KIND}))
            yield

    def _records(self) -> list[WriteRecord]:
        return [r for r in journal.settled_view(self.workspace) if r.kind == OBJECTS_KIND]

    @staticmethod
    def _newest_group(records: list[WriteRecord]) -> tuple[str | None, list[WriteRecord]]:
        """The newest objects change and its files still in effect ([]: it was undone)."""
        writes = [r for r in records if r.group and not r.undoes and r.state == "committed"]
        if not writes or writes[-1].group is None:
            return None, []
        group = writes[-1].group
        return group, journal.group_members(records, group)

    def _is_object(self, path: str) -> bool:
        return Path(path).is_relative_to(self.root.absolute())

    def _rel(self, path: Path) -> str:
        try:
            return str(path.absolute().relative_to(self.workspace.absolute()))
        except ValueError:
            return str(path)

    def _commit(
        self, change: _Change, stones: list[dict[str, Any]] | None, *, undoes: str | None = None
    ) -> None:
        if stones is not None and change.tombstones_changed:
            if read_exact(self.tombstone_file) is None:  # undo goes back to "none", never to a missing file
                with file_lock(self.tombstone_file, self.workspace):
                    storage.write_json(self.tombstone_file, {"tombstones": []}, self.workspace)
            change.write(self.tombstone_file, storage.json_text({"tombstones": stones}))
        journal.write_group(
            self.workspace,
            list(change.writes.values()),
            kind=OBJECTS_KIND,
            time=self._now(),
            action=change.op,
            copies=self.copies,
            undoes=undoes,
        )


def _undone(records: list[WriteRecord]) -> set[str]:
    """What undo records took back; an undo group a kill cut short (one of its records aborted) does
    not count, so the next undo finishes it (a legacy change is one entry here, not one per file)."""
    cut_short = {r.group for r in records if r.undoes and r.state == "aborted"}
    return {r.undoes for r in records if r.undoes and r.state == "committed" and r.group not in cut_short}
