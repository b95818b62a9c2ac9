"""SessionCompactor: when a session nears its token limit, replace old messages with a summary (DESIGN §13).

    compactor = SessionCompactor(store_path="~/proj/.clawsession.json")
    compactor.should_compact()       # estimated tokens > max_tokens
    result = compactor.compact()     # flush first, then summary + the recent messages
    result.removed_count

Every trigger (threshold, ``force``, the CLI, the bot, cron) calls :meth:`compact`,
and :meth:`compact` is the only caller of the flush before a removal.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..messages import Text
from ..text.tokens import estimate_tokens as _estimate_text
from .cut import cut_index
from .model import Compaction, CompactionResult, FlushReport, HistoryItem, SessionSnapshot
from .stores import CompactionStore, SessionFileStore
from .tokens import message_tokens, session_tokens

if TYPE_CHECKING:  # the summary and the flush load only when a compaction runs (status stays fast)
    from .flush import Flusher
    from .summary import Summarizer


def _log() -> Any:
    import logging  # on first use: `status` never logs, and starts faster without it

    return logging.getLogger("savenow.compaction")


class SessionCompactor:
    def __init__(
        self,
        preserve_recent: int = 4,
        max_tokens: int = 80_000,
        summary_max_tokens: int = 2_000,
        store_path: str | Path | None = None,
        *,
        store: CompactionStore | None = None,
        summarizer: Summarizer | None = None,
        flusher: Flusher | None = None,
        clock: Any = None,
        soft_threshold_tokens: int = 0,
    ) -> None:
        if store is None:
            if store_path is None:
                raise ValueError("SessionCompactor needs store_path or store")
            store = SessionFileStore(Path(store_path))
        if preserve_recent < 1:
            raise ValueError("preserve_recent must be at least 1")
        self.store = store
        self.preserve_recent = preserve_recent
        self.max_tokens = max_tokens
        self.summary_max_tokens = summary_max_tokens
        self._summarizer = summarizer
        self.flusher = flusher
        self.soft_threshold_tokens = soft_threshold_tokens
        if clock is None:
            from ..clock import Clock

            clock = Clock.from_env()
        self.clock = clock

    @property
    def summarizer(self) -> Summarizer:
        if self._summarizer is None:
            from .summary import OfflineSummarizer

            self._summarizer = OfflineSummarizer()
        return self._summarizer

    # -- the seed's API ---------------------------------------------------------------------------

    def load(self, *, ids: bool = True) -> SessionSnapshot:
        return self.store.load(ids=ids)

    def estimate_tokens(self, snapshot: SessionSnapshot | None = None) -> int:
        snapshot = snapshot or self.load(ids=False)
        return session_tokens(snapshot.messages, snapshot.summary)

    def should_compact(self, snapshot: SessionSnapshot | None = None) -> bool:
        snapshot = snapshot or self.load(ids=False)
        return self.estimate_tokens(snapshot) > self.max_tokens and self._cut(snapshot) > 0

    def should_flush_ahead(self, snapshot: SessionSnapshot | None = None) -> bool:
        """Past the soft threshold (``max_tokens − soft_threshold_tokens``) but not yet compacting."""
        if self.flusher is None or self.soft_threshold_tokens <= 0:
            return False
        snapshot = snapshot or self.load(ids=False)
        tokens = self.estimate_tokens(snapshot)
        return self.max_tokens - self.soft_threshold_tokens < tokens <= self.max_tokens

    def compact(self, *, force: bool = False) -> CompactionResult:
        """Flush, summarize and commit under the store's lock; a no-op when there is nothing to do."""
        with self.store.locked():
            snapshot = self.store.load()
            tokens_before = self.estimate_tokens(snapshot)
            unchanged = CompactionResult(
                compacted=False,
                removed_count=0,
                compaction_count=snapshot.compaction_count,
                tokens_before=tokens_before,
                tokens_after=tokens_before,
                summary=snapshot.summary or "",
                flush=FlushReport(status="not-needed"),
            )
            if not force and tokens_before <= self.max_tokens:
                unchanged.reason = "under-threshold"
                return unchanged
            cut = self._cut(snapshot)
            if cut <= 0:
                unchanged.reason = "nothing-new"
                return unchanged
            # Instructions (system messages) are never summarized away: they stay, ahead of the kept part.
            removed = [m for m in snapshot.messages[:cut] if m.role != "system"]
            kept = [m for m in snapshot.messages[:cut] if m.role == "system"] + snapshot.messages[cut:]
            flush = self._flush(removed)
            summary, used, fallback = self._summarize(snapshot.summary, removed)
            tokens_after = _estimate_text(summary) + sum(message_tokens(m) for m in kept)
            compaction = Compaction(
                summary=summary,
                removed=removed,
                kept=kept,
                tokens_before=tokens_before,
                tokens_after=tokens_after,
                at=self._now_iso(),
            )
            self.store.commit(snapshot, compaction)
        _log().info(
            "compacted %s: %d messages removed, %d → %d tokens",
            self.store.label,
            len(removed),
            tokens_before,
            tokens_after,
        )
        return CompactionResult(
            compacted=True,
            removed_count=len(removed),
            compaction_count=snapshot.compaction_count + 1,
            tokens_before=tokens_before,
            tokens_after=tokens_after,
            summary=summary,
            flush=flush,
            summarizer=used,
            summarizer_fallback=fallback,
        )

    def flush_ahead(self) -> FlushReport:
        """The soft-threshold flush: what the next compaction would remove, flushed now (same path)."""
        with self.store.locked():
            snapshot = self.store.load()
            cut = self._cut(snapshot)
            return self._flush(snapshot.messages[:cut])

    # -- reading ------------------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        snapshot = self.load(ids=False)  # status never looks at ids
        tokens = self.estimate_tokens(snapshot)
        return {
            "store": self.store.label,
            "messages": len(snapshot.messages),
            "tokens": tokens,
            "maxTokens": self.max_tokens,
            "shouldCompact": tokens > self.max_tokens and self._cut(snapshot) > 0,
            "compactionCount": snapshot.compaction_count,
            "preserveRecent": self.preserve_recent,
            "hasSummary": bool(snapshot.summary),
        }

    def history(self) -> list[HistoryItem]:
        return list(self.load(ids=False).history)

    def model_context(self) -> list[dict[str, Any]]:
        """What a host bot sends its model: the summary (one system message), then the kept messages."""
        snapshot = self.load(ids=False)
        context: list[dict[str, Any]] = []
        if snapshot.summary:
            context.append({"role": "system", "content": snapshot.summary})
        for message in snapshot.messages:
            item: dict[str, Any] = {"role": message.role, "content": message.content}
            if message.is_tool_call:
                item["toolUse"] = {"name": message.tool_name, "input": message.tool_input}
            context.append(item)
        return context

    # -- steps --------------------------------------------------------------------------------------

    def _cut(self, snapshot: SessionSnapshot) -> int:
        """The cut (DESIGN §13); 0 when nothing but system messages would go (they are never removed)."""
        cut = cut_index(snapshot.messages, self.preserve_recent)
        if all(m.role == "system" for m in snapshot.messages[:cut]):
            return 0
        return cut

    def _flush(self, removed: list[Any]) -> FlushReport:
        if self.flusher is None:
            return FlushReport(status="disabled")
        try:
            return self.flusher.flush(self.store.identity, removed)
        except Exception as error:  # noqa: BLE001 - logged; the flush never blocks a compaction, the range stays unflushed
            _log().exception("memory flush crashed")
            failed = Text("compaction.flush_failed", reason=type(error).__name__)
            return FlushReport(
                status="failed",
                messages=len(removed),
                notice=failed.render("en"),
                notice_zh=failed.render("zh"),
            )

    def _summarize(self, previous: str | None, removed: list[Any]) -> tuple[str, str, str | None]:
        """(summary, the summarizer that wrote it, why the configured one was not used)."""
        from .summary import OfflineSummarizer

        try:
            text = self.summarizer.summarize(previous, removed, max_tokens=self.summary_max_tokens)
            return text, self.summarizer.name, None
        except Exception as error:
            if isinstance(self.summarizer, OfflineSummarizer):
                raise
            # An LLM error's message is already scrubbed of secrets; anything else is named by type only.
            why = getattr(error, "en", None) or type(error).__name__
            report = _log().warning if hasattr(error, "en") else _log().exception  # a bug keeps its traceback
            report("the %s summarizer failed (%s); using the offline summary", self.summarizer.name, why)
            text = OfflineSummarizer().summarize(previous, removed, max_tokens=self.summary_max_tokens)
            return text, OfflineSummarizer.name, why

    def _now_iso(self) -> str:
        from datetime import UTC

        return self.clock.now().astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
