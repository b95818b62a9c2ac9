"""The one object the adapters hold: DESIGN §2's routing table, and one service per feature.

    service = SaveNowService(settings, clock=Clock(...), extractor=None)
    service.run(scope, argument)          the /savenow routing table (§2) -> Outcome
    service.preview / auto / apply / cancel / list_sessions / undo   (:mod:`.notes`)
    service.search      memory_search / memory_get (§12)              (:mod:`.search`)
    service.objects     structured memory objects (§14)               (:mod:`.objects`)
    service.compaction  session compaction and the flush (§13)        (:mod:`.compaction`)

Each feature service is built on first use, so ``/savenow list`` never builds a search index
or an LLM client. All of them share this facade's settings and clock, and ask the same
:class:`savenow.access.AccessPolicy` before they read or write for a chat.
"""

from __future__ import annotations

from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..clock import Clock, load_timezone
from .notes import NotesService
from .results import ApplyResult, CancelResult, ListResult, Outcome, PreviewResult, UndoResult

if TYPE_CHECKING:
    from ..access import AccessPolicy, Scope
    from ..config import Settings
    from ..extract.base import Extractor
    from ..models import ChatMessage
    from ..pending import PendingStore
    from ..sessions.resolve import SessionCatalog
    from ..sessions.store import SessionInfo
    from .compaction import CompactionService
    from .objects import ObjectsService
    from .search import SearchService


class SaveNowService:
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        extractor: Extractor | None = None,
        catalog: SessionCatalog | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock or Clock.from_env(load_timezone(settings.timezone))
        self.notes = NotesService(settings, clock=self.clock, extractor=extractor, catalog=catalog)

    # -- §2: routing --------------------------------------------------------------------------

    def run(self, scope: Scope, argument: str = "") -> Outcome:
        tokens = argument.split()
        head = tokens[0].lower() if tokens else ""
        if head == "undo":
            return self.undo(scope)
        if not head:
            return self.preview(scope)
        if head == "list":
            return self.list_sessions(scope)
        if head == "apply":
            return self.apply(scope)
        if head == "cancel":
            return self.cancel(scope)
        if head == "auto":
            return self.auto(scope, tokens[1] if len(tokens) > 1 else None)
        return self.preview(scope, tokens[0])

    # -- /savenow (notes) ---------------------------------------------------------------------

    def preview(self, scope: Scope, key: str | None = None, day: date | None = None) -> PreviewResult:
        return self.notes.preview(scope, key, day)

    def auto(self, scope: Scope, key: str | None = None, day: date | None = None) -> ApplyResult:
        return self.notes.auto(scope, key, day)

    def apply(self, scope: Scope, pending_id: str | None = None) -> ApplyResult:
        return self.notes.apply(scope, pending_id)

    def cancel(self, scope: Scope, pending_id: str | None = None) -> CancelResult:
        return self.notes.cancel(scope, pending_id)

    def list_sessions(self, scope: Scope) -> ListResult:
        return self.notes.list_sessions(scope)

    def undo(self, scope: Scope | None = None) -> UndoResult:
        return self.notes.undo(scope)

    def read_session(self, scope: Scope, key: str | None = None) -> tuple[SessionInfo, list[ChatMessage]]:
        return self.notes.read_session(scope, key)

    def memory_path(self, day: date) -> Path:
        return self.notes.memory_path(day)

    def record_write_owner(
        self, scope: Scope, journal_id: str | None, *, requester: str | None = None
    ) -> None:
        self.notes.record_write_owner(scope, journal_id, requester=requester)

    @property
    def access(self) -> AccessPolicy:
        return self.notes.access

    @property
    def pending(self) -> PendingStore:
        return self.notes.pending

    @property
    def catalog(self) -> SessionCatalog:
        return self.notes.catalog

    @property
    def extractor(self) -> Extractor:
        return self.notes.extractor

    # -- the other features -------------------------------------------------------------------

    @cached_property
    def search(self) -> SearchService:
        from .search import SearchService

        return SearchService.from_settings(self.settings)

    @cached_property
    def objects(self) -> ObjectsService:
        from .objects import ObjectsService

        return ObjectsService(self.settings, clock=self.clock, sessions=self.notes)

    @cached_property
    def compaction(self) -> CompactionService:
        from .compaction import CompactionService

        return CompactionService(self.settings, clock=self.clock)
