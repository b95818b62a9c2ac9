"""Typed errors. Each carries the message a user sees, in English and Chinese.

Adapters (CLI, Telegram) render ``error.message(lang)``; the CLI exits with
``error.exit_code`` (2 = refused or bad input, DESIGN §10). Never put secrets
(API keys, tokens) into a message.

New code raises with a catalog entry, ``SessionNotFoundError(Text("session.not_found", key=k))``
(:mod:`savenow.messages` holds the words); the older ``Error(en, zh)`` form still works.
"""

from __future__ import annotations

from .messages import Text


class SaveNowError(Exception):
    """Base class: a refusal or bad input the user can act on."""

    exit_code: int = 2

    def __init__(self, en: str | Text, zh: str | None = None) -> None:
        self.key: str | None = None
        if isinstance(en, Text):
            self.key = en.key
            english, zh = en.render("en"), en.render("zh")
        else:
            english = en
        super().__init__(english)
        self.en = english
        self.zh = zh or english

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


# ---- OpenClaw's SQLite-era store (issue 13) ----------------------------------------------------


class UnsupportedSessionStoreError(BadInputError):
    """OpenClaw's session database has a layout this reader does not know, or cannot be read."""

    @classmethod
    def for_layout(
        cls, path: object, version: int | None, missing: list[str]
    ) -> UnsupportedSessionStoreError:
        found = f"schema {version}" if version is not None else "no schema version"
        if version is not None and version < 8 and not missing:
            why_en, why_zh = (
                "it holds no session tables (sessions moved into SQLite at schema 8)",
                ("其中没有会话表（会话从 schema 8 起才存入 SQLite）"),
            )
        else:
            why_en = "it lacks " + ", ".join(missing)
            why_zh = "缺少 " + "、".join(missing)
        return cls(
            f"Cannot read OpenClaw's session database {path} ({found}): {why_en}. "
            "Point --sessions-dir at a sessions folder, or update savenow.",
            f"无法读取 OpenClaw 的会话数据库 {path}（{'schema ' + str(version) if version is not None else '没有 schema 版本'}）："
            f"{why_zh}。请用 --sessions-dir 指向会话目录，或更新 savenow。",
        )

    @classmethod
    def unreadable(cls, path: object, reason: str) -> UnsupportedSessionStoreError:
        return cls(
            f"Cannot read OpenClaw's session database {path}: {reason}.",
            f"无法读取 OpenClaw 的会话数据库 {path}：{reason}。",
        )


class SessionStoreBusyError(SaveNowError):
    """OpenClaw's session database stayed locked by a writer for longer than the busy timeout."""

    @classmethod
    def for_path(cls, path: object, seconds: float) -> SessionStoreBusyError:
        return cls(
            f"OpenClaw's session database {path} stayed locked for {seconds:g} s; try again in a moment.",
            f"OpenClaw 的会话数据库 {path} 被锁定超过 {seconds:g} 秒，请稍后再试。",
        )


# -- access and storage (issue 9, issue 11 item 6) ---------------------------------------------


class NotTrustedError(AccessDeniedError):
    """Nobody is configured yet (DESIGN §3.1): the reply names the user's id and the config line."""


class LockTimeoutError(SaveNowError):
    """Another savenow process kept the file locked for too long."""


# -- compaction (issue 15) ------------------------------------------------------------------------


class CompactionStoreError(BadInputError):
    """A session store compaction cannot read or write (missing, malformed, OpenClaw's own)."""


# -- structured memory objects (DESIGN §14) ---------------------------------------------------


class ObjectInputError(BadInputError):
    """An upsert/correct object of the wrong shape: unknown type, missing summary, a key outside
    the fixed vocabulary, a path-like name. Nothing is written."""


class ObjectNotFoundError(SaveNowError):
    """No stored memory object has that id or name."""


class ObjectForgottenError(SaveNowError):
    """An upsert of an identity the user asked to forget; only an explicit "remember this" lifts it."""


# -- memory search (issue 14) -----------------------------------------------------------------


class SearchPathRefusedError(BadInputError):
    """``savenow get`` on a path outside MEMORY.md, memory/** and search.extra_paths."""


class SearchDisabledError(SaveNowError):
    """``savenow search`` while ``search.enabled`` is false."""


# -- storage and the LLM client (issue 10) ---------------------------------------------------------


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
