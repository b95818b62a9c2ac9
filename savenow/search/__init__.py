"""Memory search (DESIGN §12): ``memory_search`` / ``memory_get`` over MEMORY.md and memory/.

    from savenow.search import MemorySearch
    with MemorySearch.from_settings(settings) as search:
        for hit in search.search("网关端口").results:
            print(hit.path, hit.start_line, hit.snippet)

Imports are lazy so that ``savenow.search.note_memory_write`` (called after every memory write)
costs nothing when no index exists yet.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "MemorySearch": "savenow.search.engine",
    "SearchHit": "savenow.search.engine",
    "SearchResponse": "savenow.search.engine",
    "GetResult": "savenow.search.reading",
    "SearchOptions": "savenow.search.options",
    "options_from_settings": "savenow.search.options",
    "Embedder": "savenow.search.embedder",
    "EmbeddingError": "savenow.search.embedder",
    "OpenAIEmbedder": "savenow.search.embedder",
    "recall_reply": "savenow.search.reply",
    "note_memory_write": "savenow.search.hooks",
}
__all__ = [
    "Embedder",
    "EmbeddingError",
    "GetResult",
    "MemorySearch",
    "OpenAIEmbedder",
    "SearchHit",
    "SearchOptions",
    "SearchResponse",
    "note_memory_write",
    "options_from_settings",
    "recall_reply",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'savenow.search' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
