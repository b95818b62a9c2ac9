"""The behaviour tables of DESIGN §2–§3. Knows nothing of Telegram.

API CONTRACT (adapters code against this; the bodies are filled in by the integration work):

    service = SaveNowService(settings, clock=Clock(...), extractor=None)
    service.run(scope, argument)      -> Outcome   (the /savenow routing table, §2)
    service.preview(scope, key=None, date=None)   -> PreviewResult
    service.auto(scope, key=None, date=None)      -> ApplyResult
    service.apply(scope, pending_id=None, user_id=None) -> ApplyResult
    service.cancel(scope, pending_id=None, user_id=None) -> CancelResult
    service.list_sessions(scope)      -> ListResult
    service.undo()                    -> UndoResult

All methods are synchronous and may do file and network I/O: the Telegram layer
calls them off the event loop. Refusals raise ``SaveNowError`` subclasses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date as Date
from datetime import datetime
from pathlib import Path
from typing import Literal

from .models import Entry

ChatType = Literal["direct", "group"]


@dataclass(frozen=True)
class Scope:
    """Where a command was given: (chat id, thread id) plus who asked (DESIGN §2)."""

    chat_id: str | None = None
    thread_id: str | None = None
    user_id: str | None = None
    chat_type: ChatType | None = None  # None: negative chat ids are groups, others direct
    target_session_key: str | None = None  # OpenClaw's CommandTargetSessionKey, wins (§3.1)
    is_admin: bool = False  # may apply/cancel another user's preview


@dataclass
class PreviewResult:
    session_key: str
    memory_path: Path
    entries: list[Entry]  # after the comparer: final action, resolved merge target
    markdown: str  # DESIGN §6
    pending_id: str | None  # None when there were 0 candidates (nothing stored, no buttons)
    notices: list[str] = field(default_factory=list)

    @property
    def candidates(self) -> int:
        return len(self.entries)


@dataclass
class ApplyResult:
    session_key: str
    memory_path: Path
    entries: list[Entry]
    written: bool  # False: nothing to write, or already applied
    already_applied: bool = False
    created_file: bool = False
    added_titles: list[str] = field(default_factory=list)
    merged_titles: list[str] = field(default_factory=list)
    skipped_titles: list[str] = field(default_factory=list)
    markdown: str = ""  # a short human summary (auto: the preview Markdown then the summary)


@dataclass
class CancelResult:
    cancelled: bool
    session_key: str | None = None


@dataclass
class SessionSummary:
    key: str
    updated_at: datetime | None
    thread_id: str | None
    messages: int
    source: str  # "openclaw" or "recorder"


@dataclass
class ListResult:
    sessions: list[SessionSummary]
    resolved_key: str | None  # the one /savenow would use


@dataclass
class UndoResult:
    memory_path: Path
    removed_lines: int


Outcome = PreviewResult | ApplyResult | CancelResult | ListResult


class SaveNowService:  # pragma: no cover - filled in by the integration work
    def __init__(self, settings, *, clock=None, extractor=None) -> None:  # noqa: ANN001
        raise NotImplementedError

    def run(self, scope: Scope, argument: str = "") -> Outcome:
        raise NotImplementedError

    def preview(self, scope: Scope, key: str | None = None, date: Date | None = None) -> PreviewResult:
        raise NotImplementedError

    def auto(self, scope: Scope, key: str | None = None, date: Date | None = None) -> ApplyResult:
        raise NotImplementedError

    def apply(self, scope: Scope, pending_id: str | None = None) -> ApplyResult:
        raise NotImplementedError

    def cancel(self, scope: Scope, pending_id: str | None = None) -> CancelResult:
        raise NotImplementedError

    def list_sessions(self, scope: Scope) -> ListResult:
        raise NotImplementedError

    def undo(self) -> UndoResult:
        raise NotImplementedError
