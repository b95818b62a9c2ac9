"""The live conversation of a transcript, collected newest first (both eras, OPENCLAW-STORE.md).

Both readers walk a transcript from its end — the file store line by line from
the file's tail, the SQLite store by ``seq`` descending — and feed each parsed
entry to a :class:`TailCollector`, which keeps the last ``limit`` cleaned
messages of the live conversation:

* **header** (``type: session``): the start of this window (file or generation);
* **reset**: a new conversation under the same session id — nothing older is
  read, except the entries kept from its ``firstKeptEntryId`` when it names one
  that is found;
* **leaf** ``{targetId}``: a rewind. The entries written after the target and
  before the leaf are an abandoned branch and are skipped; reading resumes at
  the target. (Tracking the target by id, not the whole ``parentId`` tree, keeps
  the file era's rule that concurrent writers' lines still count.) A target that
  is never found leaves the skipped entries in, as if there were no rewind;
* **retries**: a user message repeated with nothing said in between — only
  failed assistant turns (``stopReason: "error"``, empty), or none — is one message;
* the recorder's ``savenow.edit`` lines replace the text of the message they name;
* an entry id met twice (a generation that copied its predecessor's tail) counts once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..models import ChatMessage
from .store import Transcript
from .transcript import clean_text, message_from_line

EDIT_CUSTOM_TYPE = "savenow.edit"  # the recorder's "this message was edited" line
MAX_REWIND_BUFFER = 20_000  # entries held while looking for a rewind's target


class TailCollector:
    """Feed entries newest first with :meth:`add`; read the result with :meth:`transcript`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen = 0  # message entries examined, tool results and empties included
        self.done = limit <= 0  # the limit is reached or a reset/rewind ended the conversation
        self._items: list[ChatMessage] = []  # newest first
        self._messages = 0
        self._edits: dict[str, str] = {}
        self._ids: set[str] = set()
        self._rewind_target: str | None = None
        self._rewound: list[dict[str, Any]] = []  # entries skipped while looking for the target
        self._kept_from: str | None = None  # a reset's firstKeptEntryId still to reach
        self._before_reset = 0  # len(self._items) when that reset was met

    # -- feeding --

    def count_unparsed_message(self) -> None:
        """A message entry the reader skipped unparsed (a huge tool result)."""
        self.seen += 1

    def add(self, entry: dict[str, Any]) -> bool:
        """Take the next-older entry; False once this window needs no older entries."""
        if self.done:
            return False
        entry_id = entry.get("id")
        if isinstance(entry_id, str):
            if entry_id in self._ids:
                return True
            self._ids.add(entry_id)
        if self._rewind_target is not None:
            if entry_id != self._rewind_target:
                if len(self._rewound) < MAX_REWIND_BUFFER:
                    self._rewound.append(entry)
                return True
            self._rewind_target = None
            self._rewound.clear()
        return self._take(entry, entry_id)

    def end_window(self) -> None:
        """No older entries in this window: settle a rewind or a kept range whose target was not found."""
        if self._rewind_target is not None:
            pending, self._rewound = self._rewound, []
            self._rewind_target = None
            for entry in pending:  # the target is missing: the rewind cannot be trusted, read as written
                if not self._take(entry, entry.get("id")):
                    break
        if self._kept_from is not None:
            del self._items[self._before_reset :]  # the kept range never began: only the post-reset part
            self._messages = len(self._items)
            self._kept_from = None
            self.done = True

    # -- result --

    def transcript(self, malformed: int = 0, *, scan_stopped: bool = False) -> Transcript:
        oldest_first: list[ChatMessage] = []
        for item in reversed(self._items):
            previous = oldest_first[-1] if oldest_first else None
            if (
                item.role == "user"
                and previous is not None
                and (previous.role, previous.text) == ("user", item.text)
            ):
                continue  # a retry: the same words sent again, nothing said in between but failures
            oldest_first.append(item)
        return Transcript(
            messages=oldest_first,
            malformed_lines=malformed,
            total_messages_seen=self.seen,
            scan_stopped=scan_stopped,
        )

    # -- one entry --

    def _take(self, entry: dict[str, Any], entry_id: Any) -> bool:
        kind = entry.get("type", "message" if "message" in entry else None)
        if kind == "session":
            return False  # the header: where this window starts
        if kind == "reset":
            return self._reset(entry)
        if kind == "leaf":
            return self._rewind(entry)
        if kind == "custom" and entry.get("customType") == EDIT_CUSTOM_TYPE:
            self._remember_edit(entry)
            return True
        if kind != "message":
            return True
        self.seen += 1
        self._collect(entry, entry_id)
        if self._kept_from is not None and entry_id == self._kept_from:
            self._kept_from = None
            self.done = True
        elif self._messages >= self.limit:
            self.done = True
        return not self.done

    def _collect(self, entry: dict[str, Any], entry_id: Any) -> None:
        message = message_from_line(entry)
        if message is None:
            return  # failed turns (stopReason "error", nothing said) included: a retry follows them
        if isinstance(entry_id, str) and entry_id in self._edits:
            edited = clean_text(self._edits[entry_id])
            if not edited:
                return
            message = replace(message, text=edited)
        self._items.append(message)
        self._messages += 1

    def _reset(self, entry: dict[str, Any]) -> bool:
        kept = entry.get("firstKeptEntryId")
        if isinstance(kept, str) and kept and self._kept_from is None:
            self._kept_from = kept
            self._before_reset = len(self._items)
            return True
        if self._kept_from is not None:
            return True  # an older reset inside a kept range: the range decides
        self.done = True
        return False

    def _rewind(self, entry: dict[str, Any]) -> bool:
        target = entry.get("targetId")
        if not isinstance(target, str) or not target:
            self.done = True  # rewound to the root: nothing older is live
            return False
        if target in self._ids:
            return True  # the target is newer than the leaf: nothing to skip
        self._rewind_target = target
        return True

    def _remember_edit(self, entry: dict[str, Any]) -> None:
        data = entry.get("data")
        if not isinstance(data, dict):
            return
        target, text = data.get("targetId"), data.get("text")
        if isinstance(target, str) and isinstance(text, str):
            self._edits.setdefault(target, text)  # read backwards: the first seen is the newest edit
