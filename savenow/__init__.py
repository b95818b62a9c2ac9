"""savenow: durable notes from a chat into the agent's daily memory file, with a preview first.

The public API is imported on first use, so ``import savenow`` (and every CLI start) stays cheap:

    from savenow import SaveNowService, Scope, load_settings
    service = SaveNowService(load_settings())
    result = service.preview(Scope(chat_id="-100123", thread_id="7"))

``__all__`` is curated, and tests/test_architecture.py holds a copy: a name added or removed
here is a change of the public API, made on purpose.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.2.0"

_EXPORTS = {
    # the service and its results
    "SaveNowService": "savenow.service",
    "SaveNowApi": "savenow.service",
    "NotesService": "savenow.service",
    "SearchService": "savenow.service",
    "ObjectsService": "savenow.service",
    "CompactionService": "savenow.service",
    "PreviewResult": "savenow.service",
    "ApplyResult": "savenow.service",
    "CancelResult": "savenow.service",
    "ListResult": "savenow.service",
    "SessionSummary": "savenow.service",
    "UndoResult": "savenow.service",
    "Outcome": "savenow.service",
    "Extraction": "savenow.service",
    "ObjectsApplyOutcome": "savenow.service",
    "Reply": "savenow.service",
    "Button": "savenow.service",
    "BotNotice": "savenow.service",
    # who may do what
    "AccessPolicy": "savenow.access",
    "Scope": "savenow.access",
    # session stores: the contract a reader implements
    "SessionInfo": "savenow.sessions.store",
    "SessionStore": "savenow.sessions.store",
    "ChatIndex": "savenow.sessions.store",
    "UserMessageProbe": "savenow.sessions.store",
    "WritableStore": "savenow.sessions.store",
    # configuration and time
    "Settings": "savenow.config",
    "load_settings": "savenow.config",
    "Clock": "savenow.clock",
    # notes and extractors
    "Entry": "savenow.models",
    "ChatMessage": "savenow.models",
    "MemorySection": "savenow.models",
    "ExtractionResult": "savenow.models",
    "Extractor": "savenow.extract.base",
    "build_extractor": "savenow.extract",
    # errors: each carries the message a user sees (en, zh)
    "SaveNowError": "savenow.errors",
    "BadInputError": "savenow.errors",
    "FileMissingError": "savenow.errors",
    "ForbiddenTargetError": "savenow.errors",
    "ConfigError": "savenow.errors",
    "InvalidSessionKeyError": "savenow.errors",
    "SessionNotFoundError": "savenow.errors",
    "SessionResolutionError": "savenow.errors",
    "NoPendingError": "savenow.errors",
    "PendingExpiredError": "savenow.errors",
    "ScopeMismatchError": "savenow.errors",
    "AlreadyAppliedError": "savenow.errors",
    "UndoRefusedError": "savenow.errors",
    "AccessDeniedError": "savenow.errors",
    "ExtractorError": "savenow.errors",
    "SaveNowInternalError": "savenow.errors",
    "UnsupportedSessionStoreError": "savenow.errors",
    "SessionStoreBusyError": "savenow.errors",
    "NotTrustedError": "savenow.errors",
    "LockTimeoutError": "savenow.errors",
    "CompactionStoreError": "savenow.errors",
    "ObjectInputError": "savenow.errors",
    "ObjectNotFoundError": "savenow.errors",
    "ObjectForgottenError": "savenow.errors",
    "SearchPathRefusedError": "savenow.errors",
    "SearchDisabledError": "savenow.errors",
    "StorageError": "savenow.errors",
    "UnsafeTargetError": "savenow.errors",
    "LLMError": "savenow.errors",
    "LLMUnavailableError": "savenow.errors",
    "LLMRefusedError": "savenow.errors",
    "LLMAnswerError": "savenow.errors",
    "EmbeddingError": "savenow.errors",
}

__all__ = [  # noqa: RUF022 - grouped as in _EXPORTS
    "__version__",
    "SaveNowService",
    "SaveNowApi",
    "NotesService",
    "SearchService",
    "ObjectsService",
    "CompactionService",
    "PreviewResult",
    "ApplyResult",
    "CancelResult",
    "ListResult",
    "SessionSummary",
    "UndoResult",
    "Outcome",
    "Extraction",
    "ObjectsApplyOutcome",
    "Reply",
    "Button",
    "BotNotice",
    "AccessPolicy",
    "Scope",
    "SessionInfo",
    "SessionStore",
    "ChatIndex",
    "UserMessageProbe",
    "WritableStore",
    "Settings",
    "load_settings",
    "Clock",
    "Entry",
    "ChatMessage",
    "MemorySection",
    "ExtractionResult",
    "Extractor",
    "build_extractor",
    "SaveNowError",
    "BadInputError",
    "FileMissingError",
    "ForbiddenTargetError",
    "ConfigError",
    "InvalidSessionKeyError",
    "SessionNotFoundError",
    "SessionResolutionError",
    "NoPendingError",
    "PendingExpiredError",
    "ScopeMismatchError",
    "AlreadyAppliedError",
    "UndoRefusedError",
    "AccessDeniedError",
    "ExtractorError",
    "SaveNowInternalError",
    "UnsupportedSessionStoreError",
    "SessionStoreBusyError",
    "NotTrustedError",
    "LockTimeoutError",
    "CompactionStoreError",
    "ObjectInputError",
    "ObjectNotFoundError",
    "ObjectForgottenError",
    "SearchPathRefusedError",
    "SearchDisabledError",
    "StorageError",
    "UnsafeTargetError",
    "LLMError",
    "LLMUnavailableError",
    "LLMRefusedError",
    "LLMAnswerError",
    "EmbeddingError",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'savenow' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
