"""savenow: durable notes from a chat into the agent's daily memory file, with a preview first.

The public API is imported on first use, so ``import savenow`` (and every CLI start) stays cheap:

    from savenow import SaveNowService, Scope, load_settings
    service = SaveNowService(load_settings())
    result = service.preview(Scope(chat_id="-100123", thread_id="7"))
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "SaveNowService": "savenow.service",
    "Scope": "savenow.service",
    "AccessPolicy": "savenow.access",
    "PreviewResult": "savenow.service",
    "ApplyResult": "savenow.service",
    "Settings": "savenow.config",
    "load_settings": "savenow.config",
    "Clock": "savenow.clock",
    "SaveNowError": "savenow.errors",
    "Entry": "savenow.models",
    "ChatMessage": "savenow.models",
    "MemorySection": "savenow.models",
    "ExtractionResult": "savenow.models",
    "Extractor": "savenow.extract.base",
    "build_extractor": "savenow.extract",
}

__all__ = [  # noqa: RUF022 - grouped as in _EXPORTS
    "__version__",
    "SaveNowService",
    "Scope",
    "AccessPolicy",
    "PreviewResult",
    "ApplyResult",
    "Settings",
    "load_settings",
    "Clock",
    "SaveNowError",
    "Entry",
    "ChatMessage",
    "MemorySection",
    "ExtractionResult",
    "Extractor",
    "build_extractor",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'savenow' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
