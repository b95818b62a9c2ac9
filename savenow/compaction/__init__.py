"""Session compaction with a pre-compaction memory flush (DESIGN §13).

    from savenow.compaction import SessionCompactor
    compactor = SessionCompactor(preserve_recent=4, max_tokens=80000, store_path=".clawsession.json")
    if compactor.should_compact():
        result = compactor.compact()
        print(result.removed_count)

Names are imported on first use, so `savenow compact status` starts fast.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "SessionCompactor": ".compactor",
    "cut_index": ".cut",
    "Flusher": ".flush",
    "CompactionResult": ".model",
    "FlushReport": ".model",
    "HistoryItem": ".model",
    "SessionMessage": ".model",
    "SessionSnapshot": ".model",
    "CompactionStore": ".stores",
    "SessionFileStore": ".stores",
    "TranscriptStore": ".stores",
    "OfflineSummarizer": ".summary",
    "Summarizer": ".summary",
    "TOOL_CALL_TOKENS": ".tokens",
    "message_tokens": ".tokens",
    "session_tokens": ".tokens",
}

__all__ = [
    "TOOL_CALL_TOKENS",
    "CompactionResult",
    "CompactionStore",
    "FlushReport",
    "Flusher",
    "HistoryItem",
    "OfflineSummarizer",
    "SessionCompactor",
    "SessionFileStore",
    "SessionMessage",
    "SessionSnapshot",
    "Summarizer",
    "TranscriptStore",
    "cut_index",
    "message_tokens",
    "session_tokens",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'savenow.compaction' has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
