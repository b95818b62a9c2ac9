"""Memory search as a service (DESIGN §12): the access rule, then the engine of :mod:`savenow.search`.

    search = SearchService.from_settings(settings)
    search.search("网关端口", scope=scope)              -> SearchResponse
    search.get("memory/2026-05-15.md", scope=scope)    -> GetResult

No scope is the machine's own operator (the command line), as ``Scope(via="local")`` is; a chat
scope is checked by :meth:`savenow.access.AccessPolicy.require` first — with no policy given,
the default one, which trusts nobody. Importing this module loads no pydantic: ``savenow search``
with no configuration builds the service from a workspace and :class:`SearchOptions` directly.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..search.options import SearchOptions

if TYPE_CHECKING:
    from ..access import AccessPolicy, Scope
    from ..config import Settings
    from ..search.engine import SearchResponse
    from ..search.reading import GetResult


class SearchService:
    def __init__(
        self, workspace: Path, options: SearchOptions, *, access: AccessPolicy | None = None
    ) -> None:
        self.workspace = workspace
        self.options = options
        self._access = access

    @classmethod
    def from_settings(cls, settings: Settings) -> SearchService:
        from ..access import AccessPolicy
        from ..search.options import options_from_settings

        return cls(
            settings.workspace, options_from_settings(settings), access=AccessPolicy.from_settings(settings)
        )

    def search(
        self,
        query: str,
        *,
        scope: Scope | None = None,
        max_results: int | None = None,
        min_score: float | None = None,
    ) -> SearchResponse:
        from ..search.engine import MemorySearch

        self._require(scope)
        with MemorySearch(self.workspace, self.options) as engine:
            return engine.search(query, max_results=max_results, min_score=min_score)

    def get(
        self, path: str, *, scope: Scope | None = None, from_line: int | None = None, lines: int | None = None
    ) -> GetResult:
        from ..search.reading import read_memory_file  # no index: the engine is not loaded

        self._require(scope)
        return read_memory_file(self.workspace, self.options, path, from_line=from_line, lines=lines)

    def _require(self, scope: Scope | None) -> None:
        if scope is None:
            return
        from ..access import AccessPolicy

        (self._access or AccessPolicy()).require(scope)
