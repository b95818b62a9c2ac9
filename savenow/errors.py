"""Typed errors. Each carries the message a user sees, in English and Chinese.

Adapters (CLI, Telegram) render ``error.message(lang)``; the CLI exits with
``error.exit_code`` (2 = refused or bad input, DESIGN §10). Never put secrets
(API keys, tokens) into a message.
"""

from __future__ import annotations


class SaveNowError(Exception):
    """Base class: a refusal or bad input the user can act on."""

    exit_code: int = 2

    def __init__(self, en: str, zh: str | None = None) -> None:
        super().__init__(en)
        self.en = en
        self.zh = zh or en

    def message(self, lang: str = "en") -> str:
        return self.zh if lang.startswith("zh") else self.en

    def __str__(self) -> str:  # one line on stderr
        return self.en


class BadInputError(SaveNowError):
    """Malformed JSON, entries of the wrong shape, oversized text, bad flags."""


class FileMissingError(BadInputError):
    """A file named on the command line does not exist."""


class ForbiddenTargetError(BadInputError):
    """A write aimed at MEMORY.md or outside the workspace's memory folder."""


class ConfigError(SaveNowError):
    """A bad configuration value; the message names the key and its source."""


class InvalidSessionKeyError(BadInputError):
    """An explicit session key that is not a session key (path-like, too long, NUL)."""


class SessionNotFoundError(SaveNowError):
    """An explicit session key that no store knows."""


class SessionResolutionError(SaveNowError):
    """No session could be resolved for this chat/topic (DESIGN §3)."""


class NoPendingError(SaveNowError):
    """Apply/cancel with no pending preview."""


class PendingExpiredError(SaveNowError):
    """Apply after the preview's TTL."""


class ScopeMismatchError(SaveNowError):
    """Apply/cancel from another session or topic than the preview's."""


class AlreadyAppliedError(SaveNowError):
    """A second apply of the same preview; nothing written."""


class UndoRefusedError(SaveNowError):
    """Undo cannot remove the last write's lines exactly."""


class AccessDeniedError(SaveNowError):
    """A user or chat not allowed by the configuration."""


class ExtractorError(SaveNowError):
    """The extractor (e.g. the LLM) failed; nothing was written, no pending stored."""


class SaveNowInternalError(SaveNowError):
    """A bug or an environment failure; exit 1."""

    exit_code = 1


# -- storage and the LLM client (issue 10) ---------------------------------------------------------


class LockTimeoutError(SaveNowError):
    """Another savenow process kept the file locked for too long."""


class StorageError(SaveNowError):
    """The disk refused a read or write (full, read-only, permission); the file is as it was."""


class UnsafeTargetError(ForbiddenTargetError):
    """A write target that is a symlink, not a regular file, read-only, or outside the allowed folders."""


class LLMError(SaveNowError):
    """The LLM or embeddings endpoint failed; neutral (the caller says what was not done)."""


class LLMUnavailableError(LLMError):
    """Timeouts, dropped connections, 429/5xx after the retries, or the total deadline passed."""


class LLMRefusedError(LLMError):
    """The endpoint rejected the request (4xx): key, model, URL or shape."""


class LLMAnswerError(LLMError):
    """The endpoint answered with something unusable: too large, not JSON, wrong shape."""
