"""Compaction as the CLI, cron and the bot use it: pick the store, build the compactor, say what happened.

    service = CompactionService(settings, clock=clock)
    service.status(target) / service.run(target, force=...) / service.history(target) / service.check()
    service.after_message(key, lang="zh")   # the bot, after recording a message: -> BotNotice | None
    service.command(key, "status", lang, scope=scope)   # /compact, /compact status (access checked)

Knows nothing of Telegram; the bot renders :class:`BotNotice` text as it is.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..access import AccessPolicy, Scope
from ..clock import Clock, load_timezone
from ..compaction.compactor import SessionCompactor
from ..compaction.flush import Flusher, workspace_problem
from ..compaction.model import CompactionResult, FlushReport
from ..compaction.stores import CompactionStore, SessionFileStore, TranscriptStore
from ..errors import CompactionStoreError, SessionResolutionError
from ..messages import Text
from ..sessions.keys import validate_session_key
from ..storage.files import atomic_write
from ..storage.locks import file_lock
from .results import BotNotice

if TYPE_CHECKING:
    from ..access import AccessPolicy, Scope
    from ..config import Settings

log = logging.getLogger("savenow.compaction")
CHECK_LOG = "compaction.log"
MAX_LOG_BYTES = 1_000_000


@dataclass(frozen=True)
class Target:
    """Which session: a seed file (``--store``), a recorded key, or a chat + thread."""

    store_file: Path | None = None
    key: str | None = None
    chat_id: str | None = None
    thread_id: str | None = None


class CompactionService:
    def __init__(self, settings: Settings, *, clock: Clock | None = None, extractor: Any = None) -> None:
        self.settings = settings
        self.config = settings.compaction
        self.clock = clock or Clock.from_env(load_timezone(settings.timezone))
        self._extractor = extractor
        self._summarizer: Any = None

    @property
    def access(self) -> AccessPolicy:
        from ..access import AccessPolicy

        return AccessPolicy.from_settings(self.settings)

    # -- building blocks ------------------------------------------------------------------------

    def extractor(self) -> Any:
        if self._extractor is None:
            from ..extract import build_extractor

            self._extractor = build_extractor(self.settings)
        return self._extractor

    def summarizer(self) -> Any:
        """``compaction.summarizer``: offline, llm, or auto (the LLM when llm.base_url and a key are set).
        None: the compactor's own offline default (loaded only when a compaction runs)."""
        choice = self.config.summarizer
        if choice == "offline" or (choice == "auto" and not self.settings.llm.configured):
            return None
        if self._summarizer is None:
            from ..compaction.llm_summary import LLMSummarizer

            self._summarizer = LLMSummarizer(self.settings.llm)
        return self._summarizer

    def flusher(self) -> Flusher:
        return Flusher(
            workspace=self.settings.workspace,
            memory_dir=self.settings.memory_dir,
            extractor=self.extractor,
            now=self.clock.now,
            today=self.clock.today,
            enabled=self.config.flush.enabled,
            chunk_messages=self.settings.transcript_limit,
        )

    def recorder(self) -> Any:
        from datetime import timedelta

        from ..sessions.recorder import SessionRecorder

        return SessionRecorder(
            self.settings.effective_recorder_dir,
            agent_id=self.settings.agent_id,
            clock=self.clock,
            idle_gap=timedelta(minutes=self.settings.telegram.idle_gap_minutes),
        )

    def store(self, target: Target) -> CompactionStore:
        if target.store_file is not None:
            return self._file_store(target.store_file)
        key = target.key or self._key_for(target.chat_id, target.thread_id)
        return self._recorded(key)

    def compactor(
        self, target: Target, *, preserve_recent: int | None = None, max_tokens: int | None = None
    ) -> SessionCompactor:
        config = self.config
        return SessionCompactor(
            preserve_recent=preserve_recent or config.preserve_recent,
            max_tokens=max_tokens or config.max_tokens,
            summary_max_tokens=config.summary_max_tokens,
            store=self.store(target),
            summarizer=self.summarizer(),
            flusher=self.flusher(),
            clock=self.clock,
            soft_threshold_tokens=config.reserve_tokens_floor + config.soft_threshold_tokens,
        )

    # -- commands -------------------------------------------------------------------------------

    def status(self, target: Target, **overrides: Any) -> dict[str, Any]:
        return self.compactor(target, **overrides).status()

    def run(self, target: Target, *, force: bool = False, **overrides: Any) -> CompactionResult:
        return self.compactor(target, **overrides).compact(force=force)

    def history(self, target: Target) -> list[dict[str, Any]]:
        return [item.to_json() for item in self.compactor(target).history()]

    def check(self, targets: list[Target] | None = None) -> list[tuple[str, CompactionResult]]:
        """Cron / heartbeat: compact every session over the threshold; log only inside <workspace>/.savenow/."""
        if not self.config.enabled:
            return []
        done: list[tuple[str, CompactionResult]] = []
        for target in targets if targets is not None else self._recorded_targets():
            compactor = self.compactor(target)
            if not compactor.should_compact():
                continue
            result = compactor.compact()
            if result.compacted:
                done.append((compactor.store.label, result))
                self._log_check(compactor.store.label, result)
        return done

    # -- the bot --------------------------------------------------------------------------------

    def after_message(self, key: str, lang: str = "en") -> BotNotice | None:
        """Called after the recorder stored a message of ``key``: compact past the threshold (flush first),
        or flush ahead past the soft threshold. Returns what to tell the topic, or None to stay quiet."""
        if not self.config.enabled:
            return None
        try:
            compactor = self.compactor(Target(key=key))
            if _cannot_be_due(compactor):
                return None
            snapshot = compactor.load(ids=False)  # the thresholds only; compact() reads it again
        except CompactionStoreError:
            return None  # not a recorded session (yet)
        if compactor.should_compact(snapshot):
            return self._notice(compactor.compact(), compactor)
        if compactor.should_flush_ahead(snapshot):
            flush = compactor.flush_ahead()
            return _flush_notice(flush) if flush.status in ("written", "skipped", "failed") else None
        return None

    def command(
        self, key: str, argument: str = "", lang: str = "en", *, scope: Scope | None = None
    ) -> BotNotice:
        """``/compact`` (compact now, flush first) and ``/compact status``.

        With a chat ``scope``, the access rule first (DESIGN §3.1): the requester may use savenow
        in that chat, and ``key`` is a session of that chat (admins may name any)."""
        if scope is not None:
            self.access.require(scope)
            self.access.require_session_key(scope, key)
        compactor = self.compactor(Target(key=key))
        if argument.strip().lower() == "status":
            status = compactor.status()
            return BotNotice.of(
                Text(
                    "compaction.status",
                    messages=status["messages"],
                    tokens=status["tokens"],
                    max_tokens=status["maxTokens"],
                    count=status["compactionCount"],
                )
            )
        return self._notice(compactor.compact(force=True), compactor)

    def _notice(self, result: CompactionResult, compactor: SessionCompactor) -> BotNotice:
        if not result.compacted:
            return BotNotice.of(Text("compaction.nothing"), result=result)
        done = Text(
            "compaction.done",
            removed=result.removed_count,
            before=result.tokens_before,
            after=result.tokens_after,
        )
        en, zh = done.render("en"), done.render("zh")
        flush = _flush_notice(result.flush)
        if flush is not None:
            en, zh = f"{en}\n{flush.en}", f"{zh}\n{flush.zh}"
        return BotNotice(en, zh, result=result, flush=result.flush)

    # -- stores ---------------------------------------------------------------------------------

    def _file_store(self, path: Path) -> SessionFileStore:
        return SessionFileStore.checked(path, self.settings.sessions_dir)

    def _recorded(self, key: str) -> TranscriptStore:
        key = validate_session_key(key)
        recorder = self.recorder()
        transcript = recorder.transcript_of(key)
        if transcript is None or not transcript.is_file():
            from ..sessions.openclaw import OpenClawFileStore

            if self.settings.sessions_dir and OpenClawFileStore(self.settings.sessions_dir).get(key):
                raise CompactionStoreError(Text("compaction.openclaw_owned", key=key))
            raise CompactionStoreError(Text("compaction.no_recorded_session", key=key))
        return TranscriptStore(recorder, key, transcript)

    def _key_for(self, chat_id: str | None, thread_id: str | None) -> str:
        from ..sessions.openclaw import OpenClawFileStore
        from ..sessions.resolve import SessionCatalog

        if chat_id is None:
            raise CompactionStoreError(Text("compaction.name_a_session"))
        catalog = SessionCatalog(
            [OpenClawFileStore(self.settings.effective_recorder_dir, source="recorder")],
            agent_id=self.settings.agent_id,
        )
        try:
            info = catalog.resolve(chat_id=chat_id, thread_id=thread_id)
        except SessionResolutionError as error:
            raise CompactionStoreError(Text("common.message", message=error)) from error
        return info.key

    def _recorded_targets(self) -> list[Target]:
        from ..sessions.openclaw import OpenClawFileStore

        store = OpenClawFileStore(self.settings.effective_recorder_dir, source="recorder")
        if not (self.settings.effective_recorder_dir / "sessions.json").is_file():
            return []
        return [Target(key=info.key) for info in store.list_sessions()]

    def _log_check(self, label: str, result: CompactionResult) -> None:
        if workspace_problem(self.settings.workspace) is not None:
            return
        path = self.settings.state_dir / "logs" / CHECK_LOG
        line = json.dumps(
            {"at": self.clock.now().isoformat(), "session": label, **result.to_json(), "summary": None},
            ensure_ascii=False,
        )
        with file_lock(path, self.settings.workspace):
            try:
                old = path.read_text(encoding="utf-8")
            except FileNotFoundError:
                old = ""
            if len(old) > MAX_LOG_BYTES:
                old = old[len(old) // 2 :].split("\n", 1)[-1]
            atomic_write(path, old + line + "\n")


def _cannot_be_due(compactor: SessionCompactor) -> bool:
    """A transcript smaller in bytes than the early-flush threshold in tokens cannot have reached it:
    every estimated token takes at least one byte of the file (a server-reported usage may not, so a
    file that carries one is parsed). Saves parsing the whole transcript after each message."""
    path = getattr(compactor.store, "path", None)
    threshold = compactor.max_tokens - compactor.soft_threshold_tokens
    try:
        if path is None or path.stat().st_size > max(threshold, 0):
            return False
        return b'"totalTokens"' not in path.read_bytes()
    except OSError:
        return False


def _flush_notice(flush: FlushReport) -> BotNotice | None:
    if flush.status == "written" and flush.notes:
        titles = "; ".join(flush.notes)
        name = Path(flush.memory_path or "").name
        return BotNotice.of(Text("compaction.flush_saved", name=name, titles=titles), flush=flush)
    if flush.status in ("skipped", "failed") and flush.notice:
        return BotNotice(flush.notice, flush.notice_zh or flush.notice, flush=flush)
    return None
