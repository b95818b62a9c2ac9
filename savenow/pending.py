"""Pending previews (DESIGN §5.4): what a preview proposed, waiting for Apply or Cancel.

The JSON is the OpenClaw skill's ``temp/savenow-pending.json``
(``version, sessionKey, messageThreadId, generatedAt, expiresAt, memoryPath,
entriesFile, entries``) plus ``chatId, userId, date, baseSha256`` and two of
ours: ``id`` (a short token for Telegram callback data) and ``appliedAt``.
Attribute names follow the JSON keys, so code and files read the same.

The store only stores: applying a pending to its memory file is
:mod:`savenow.applying`, one layer up, so this module never writes memory.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from .errors import BadInputError, NoPendingError, PendingExpiredError, ScopeMismatchError, UnsafeTargetError
from .messages import Text
from .models import Entry, parse_entries
from .storage.files import atomic_write, delete_file, read_json, sha256_text
from .storage.locks import file_lock
from .storage.targets import check_state_target

PENDING_VERSION = 1


def new_pending_id() -> str:
    """12 URL-safe characters: fits Telegram's 64-byte callback data with room to spare."""
    return secrets.token_urlsafe(9)


def _iso(value: datetime) -> str:
    return value.isoformat()


def _parse_time(value: Any, what: str) -> datetime:
    if not isinstance(value, str):
        raise _malformed(Text("pending.malformed.time_not_string", what=what))
    try:
        parsed = datetime.fromisoformat(value.strip())  # 3.11+ reads "Z"
    except ValueError as exc:
        raise _malformed(Text("pending.malformed.time_invalid", what=what, value=value)) from exc
    return parsed if parsed.tzinfo else parsed.astimezone()


def _malformed(detail: Text) -> BadInputError:
    return BadInputError(Text("pending.malformed", detail=detail))


def _optional_text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _malformed(Text("pending.malformed.not_string", key=key))
    return str(value)


@dataclass
class PendingPreview:
    sessionKey: str | None
    messageThreadId: str | None
    generatedAt: str
    expiresAt: str
    memoryPath: str
    entries: list[dict[str, Any]]
    entriesFile: str | None = None
    chatId: str | None = None
    userId: str | None = None
    date: str | None = None  # YYYY-MM-DD of the memory file (a preview before midnight keeps its day)
    baseSha256: str | None = None  # the memory file when previewed; None = it did not exist
    id: str = field(default_factory=new_pending_id)
    appliedAt: str | None = None
    appliedWriteId: str | None = None  # the journal id of the write apply made (None: nothing new to write)
    version: int = PENDING_VERSION
    baseKnown: bool = field(default=True, repr=False)  # False for a Node-made file without baseSha256

    @classmethod
    def create(
        cls,
        *,
        now: datetime,
        ttl_minutes: int,
        memory_path: Path,
        day: Date,
        entries: Sequence[Entry],
        memory_text: str | None,
        session_key: str | None = None,
        thread_id: str | None = None,
        **scope: str | None,
    ) -> PendingPreview:
        """A new pending preview, expiring ``ttl_minutes`` after ``now``; ``scope`` may hold
        ``chatId``, ``userId`` and ``entriesFile``."""
        return cls(
            sessionKey=session_key,
            messageThreadId=thread_id,
            generatedAt=_iso(now),
            expiresAt=_iso(now + timedelta(minutes=ttl_minutes)),
            memoryPath=str(memory_path),
            entries=[entry.to_json() for entry in entries],
            date=day.isoformat(),
            baseSha256=sha256_text(memory_text),
            **scope,  # type: ignore[arg-type]  # chatId, userId, entriesFile: strings or None
        )

    @property
    def generated_at(self) -> datetime:
        return _parse_time(self.generatedAt, "generatedAt")

    @property
    def expires_at(self) -> datetime:
        return _parse_time(self.expiresAt, "expiresAt")

    @property
    def day(self) -> Date | None:
        return Date.fromisoformat(self.date) if self.date else None

    def entry_objects(self) -> list[Entry]:
        return parse_entries(self.entries)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": self.version,
            "id": self.id,
            "sessionKey": self.sessionKey or "",
            "messageThreadId": self.messageThreadId or "",
            "chatId": self.chatId,
            "userId": self.userId,
            "generatedAt": self.generatedAt,
            "expiresAt": self.expiresAt,
            "date": self.date,
            "memoryPath": self.memoryPath,
            "entriesFile": self.entriesFile,
            "baseSha256": self.baseSha256,
            "appliedAt": self.appliedAt,
            "appliedWriteId": self.appliedWriteId,
            "entries": list(self.entries),
        }
        if not self.baseKnown:
            del data["baseSha256"]
        return data

    @classmethod
    def from_json(cls, data: Any) -> PendingPreview:
        """Validate a pending JSON object (ours or the Node skill's)."""
        if not isinstance(data, dict):
            raise _malformed(Text("pending.malformed.not_object"))
        memory_path = data.get("memoryPath")
        if not isinstance(memory_path, str) or not memory_path:
            raise _malformed(Text("pending.malformed.memory_path_missing"))
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise _malformed(Text("pending.malformed.entries_not_list"))
        parse_entries(entries)  # the wrong shape is refused now, not at apply time
        generated = data.get("generatedAt")
        _parse_time(generated, "generatedAt")
        expires = data.get("expiresAt")
        _parse_time(expires, "expiresAt")
        day = _optional_text(data, "date")
        if day is not None:
            try:
                Date.fromisoformat(day)
            except ValueError as exc:
                raise _malformed(Text("pending.malformed.bad_date", day=day)) from exc
        base = data.get("baseSha256")
        if base is not None and not isinstance(base, str):
            raise _malformed(Text("pending.malformed.bad_base"))
        pending_id = _optional_text(data, "id") or new_pending_id()
        return cls(
            version=_version(data.get("version")),
            id=pending_id,
            sessionKey=_optional_text(data, "sessionKey"),
            messageThreadId=_optional_text(data, "messageThreadId"),
            chatId=_optional_text(data, "chatId"),
            userId=_optional_text(data, "userId"),
            generatedAt=str(generated),
            expiresAt=str(expires),
            date=day,
            memoryPath=memory_path,
            entriesFile=_optional_text(data, "entriesFile"),
            baseSha256=base,
            baseKnown="baseSha256" in data,
            appliedAt=_optional_text(data, "appliedAt"),
            appliedWriteId=_optional_text(data, "appliedWriteId"),
            entries=entries,
        )


def _version(value: Any) -> int:
    if value is None or value == "":
        return PENDING_VERSION
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip().isdigit():
        raise _malformed(Text("pending.malformed.bad_version", value=value))
    number = int(str(value).strip())
    if number != PENDING_VERSION:
        raise _malformed(
            Text("pending.malformed.unsupported_version", number=number, supported=PENDING_VERSION)
        )
    return number


def _same(expected: str | None, given: str | int | None) -> bool:
    return (expected or "") == ("" if given is None else str(given))


def check_pending(
    pending: PendingPreview | None,
    *,
    now: datetime,
    session_key: str | None = None,
    thread_id: str | int | None = None,
    chat_id: str | int | None = None,
) -> PendingPreview:
    """Refuse a missing, expired or other-scope pending (the skill's three one-liners).

    A scope value passed as None is not checked; any other value must equal
    the pending's (an empty value matches an empty one).
    """
    if pending is None:
        raise NoPendingError(Text("pending.none"))
    expires = pending.expires_at
    if now > expires:
        minutes = max(1, math.ceil((now - expires).total_seconds() / 60))
        raise PendingExpiredError(Text("pending.expired", minutes=minutes))
    for expected, given in (
        (pending.sessionKey, session_key),
        (pending.messageThreadId, thread_id),
        (pending.chatId, chat_id),
    ):
        if given is not None and not _same(expected, given):
            raise ScopeMismatchError(Text("pending.scope_mismatch"))
    return pending


# -- files ------------------------------------------------------------------------------------


def read_pending(path: Path) -> PendingPreview | None:
    """The pending at ``path``; None when there is none. Malformed → BadInputError."""
    data = read_json(path, Text("targets.pending_file"))
    return None if data is None else PendingPreview.from_json(data)


def store_pending(path: Path, pending: PendingPreview, *, workspace: Path | None = None) -> None:
    """Write the pending JSON (hold the pending file's lock)."""
    atomic_write(
        path, json.dumps(pending.to_json(), ensure_ascii=False, indent=2) + "\n", workspace=workspace
    )


def _require_pending_file(path: Path) -> None:
    """An existing file is only replaced or removed when it is a pending preview (issue 10 item 1)."""
    try:
        data = read_json(path, Text("targets.pending_file"))
    except BadInputError as exc:
        raise _not_a_pending(path) from exc
    if data is None:
        return
    if not isinstance(data, dict) or "memoryPath" not in data or "entries" not in data:
        raise _not_a_pending(path)


def _not_a_pending(path: Path) -> UnsafeTargetError:
    return UnsafeTargetError(Text("pending.not_a_pending", path=path))


def write_pending(
    path: Path, pending: PendingPreview, *, workspace: Path | None = None, forbidden: Sequence[Path] = ()
) -> None:
    """Atomically (re)place the pending file, under its lock; never over a file that is not a pending.

    ``forbidden`` names files it must never be (the memory file, the entries file).
    """
    check_state_target(path, forbidden=[Path(pending.memoryPath), *forbidden])
    with file_lock(path, workspace):
        check_state_target(path, forbidden=[Path(pending.memoryPath), *forbidden])
        _require_pending_file(path)
        store_pending(path, pending, workspace=workspace)


def delete_pending(
    path: Path, *, workspace: Path | None = None, forbidden: Sequence[Path] = ()
) -> PendingPreview | None:
    """Remove the pending file; returns what it held (None when there was none).

    A file that is not a pending preview (a memory file, an entries file, anything else) is refused.
    """
    check_state_target(path, forbidden=forbidden)
    with file_lock(path, workspace):
        _require_pending_file(path)
        try:
            pending = read_pending(path)
        except BadInputError:
            pending = None  # pending-shaped but malformed (a Node script's bad timestamp): still removed
        delete_file(path)
    return pending


class PendingStore:
    """The bot's pending previews: one per scope, ``<state_dir>/pending/<safe scope name>.json``."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        self.workspace = self.state_dir.parent  # locks go to <workspace>/.savenow/locks

    def path(self, scope_key: str) -> Path:
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", scope_key).strip("._")[:64] or "scope"
        digest = hashlib.sha256(scope_key.encode("utf-8")).hexdigest()[:12]
        return self.state_dir / "pending" / f"{safe}.{digest}.json"

    def save(self, scope_key: str, pending: PendingPreview) -> None:
        """A newer preview replaces the older one of the same scope."""
        write_pending(self.path(scope_key), pending, workspace=self.workspace)

    def load(self, scope_key: str) -> PendingPreview | None:
        return read_pending(self.path(scope_key))

    def delete(self, scope_key: str) -> PendingPreview | None:
        return delete_pending(self.path(scope_key), workspace=self.workspace)
