"""The service: DESIGN's behaviour tables, knowing nothing of Telegram or argparse.

- :mod:`.facade`     — :class:`SaveNowService`, the object adapters hold; ``run()`` is §2's routing table
- :mod:`.notes`      — /savenow: preview, auto, apply, cancel, list, undo (:func:`draft` is the memory engine's)
- :mod:`.search`     — memory_search / memory_get behind the access rule
- :mod:`.objects`    — structured memory objects: extract preview, apply, /memory replies
- :mod:`.compaction` — compaction and the flush, for the CLI, cron and the bot
- :mod:`.results`    — every result type the adapters render
- :mod:`.protocol`   — :class:`SaveNowApi`, what an adapter may call (fakes implement it in tests)

Names are imported on first use: the script drop-ins import :mod:`.notes` without pydantic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names, for type checkers; at run time __getattr__ imports them on first use
    from ..access import AccessPolicy, Scope
    from ..memory.draft import Draft, draft
    from .compaction import CompactionService, Target
    from .facade import SaveNowService
    from .notes import NotesService
    from .objects import ObjectsService
    from .protocol import SaveNowApi
    from .results import (
        ApplyResult,
        BotNotice,
        Button,
        CancelResult,
        Extraction,
        ListResult,
        ObjectsApplyOutcome,
        Outcome,
        PreviewResult,
        Reply,
        SessionSummary,
        UndoResult,
    )
    from .search import SearchService

_EXPORTS = {
    "SaveNowService": ".facade",
    "NotesService": ".notes",
    "Draft": "savenow.memory.draft",
    "draft": "savenow.memory.draft",
    "SearchService": ".search",
    "ObjectsService": ".objects",
    "CompactionService": ".compaction",
    "Target": ".compaction",
    "SaveNowApi": ".protocol",
    "PreviewResult": ".results",
    "ApplyResult": ".results",
    "CancelResult": ".results",
    "ListResult": ".results",
    "SessionSummary": ".results",
    "UndoResult": ".results",
    "Outcome": ".results",
    "Extraction": ".results",
    "ObjectsApplyOutcome": ".results",
    "Reply": ".results",
    "Button": ".results",
    "BotNotice": ".results",
    "Scope": "savenow.access",
    "AccessPolicy": "savenow.access",
}

__all__ = [
    "AccessPolicy",
    "ApplyResult",
    "BotNotice",
    "Button",
    "CancelResult",
    "CompactionService",
    "Draft",
    "Extraction",
    "ListResult",
    "NotesService",
    "ObjectsApplyOutcome",
    "ObjectsService",
    "Outcome",
    "PreviewResult",
    "Reply",
    "SaveNowApi",
    "SaveNowService",
    "Scope",
    "SearchService",
    "SessionSummary",
    "Target",
    "UndoResult",
    "draft",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'savenow.service' has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
