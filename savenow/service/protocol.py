"""What an adapter may call on the service: the Telegram layer and the CLI type it by this, not ``Any``.

:class:`savenow.service.SaveNowService` implements it; tests hand the adapters scripted fakes
that implement the same methods.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..access import Scope
    from .compaction import CompactionService
    from .objects import ObjectsService
    from .results import ApplyResult, CancelResult, ListResult, Outcome, PreviewResult, UndoResult
    from .search import SearchService


@runtime_checkable
class SaveNowApi(Protocol):
    def run(self, scope: Scope, argument: str = "") -> Outcome: ...

    def preview(self, scope: Scope, key: str | None = None, day: date | None = None) -> PreviewResult: ...

    def auto(self, scope: Scope, key: str | None = None, day: date | None = None) -> ApplyResult: ...

    def apply(self, scope: Scope, pending_id: str | None = None) -> ApplyResult: ...

    def cancel(self, scope: Scope, pending_id: str | None = None) -> CancelResult: ...

    def list_sessions(self, scope: Scope) -> ListResult: ...

    def undo(self, scope: Scope | None = None) -> UndoResult: ...

    def record_write_owner(
        self, scope: Scope, journal_id: str | None, *, requester: str | None = None
    ) -> None: ...

    # The other features, each behind the same access rule (built on first use).
    @property
    def search(self) -> SearchService: ...

    @property
    def objects(self) -> ObjectsService: ...

    @property
    def compaction(self) -> CompactionService: ...
