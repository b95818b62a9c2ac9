"""What the service returns, in one place: plain dataclasses the adapters render.

- /savenow (:mod:`.notes`): :class:`PreviewResult`, :class:`ApplyResult`, :class:`CancelResult`,
  :class:`ListResult` (of :class:`SessionSummary`), :class:`UndoResult`; :data:`Outcome` is any of them
  (what :meth:`SaveNowService.run` answers).
- memory objects (:mod:`.objects`): :class:`Extraction`, :class:`ObjectsApplyOutcome`, and
  :class:`Reply` with its :class:`Button` for the Telegram layer.
- compaction (:mod:`.compaction`): :class:`BotNotice`.
- search (:mod:`.search`) answers with the engine's own :class:`savenow.search.SearchResponse` and
  :class:`savenow.search.GetResult`: they are the JSON of DESIGN §12.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..messages import Text, localize
from ..models import Entry

if TYPE_CHECKING:
    from ..compaction.model import CompactionResult, FlushReport
    from ..objects.extract import Plan
    from ..objects.store import Result


@dataclass
class PreviewResult:
    session_key: str
    memory_path: Path
    entries: list[Entry]  # after the comparer: final action, resolved merge target
    markdown: str  # DESIGN §6
    pending_id: str | None  # None when there were 0 candidates (nothing stored, no buttons)
    notices: list[str] = field(default_factory=list)
    usage: dict[str, int] | None = None  # tokens the LLM server reported, when an LLM extracted

    @property
    def candidates(self) -> int:
        return len(self.entries)


@dataclass
class ApplyResult:
    session_key: str
    memory_path: Path
    entries: list[Entry]
    written: bool  # False: nothing new to write, or already applied
    already_applied: bool = False
    undone_since: bool = False  # already applied, and that write was undone since
    applied_at: str | None = None
    created_file: bool = False
    added_titles: list[str] = field(default_factory=list)
    merged_titles: list[str] = field(default_factory=list)
    skipped_titles: list[str] = field(default_factory=list)
    markdown: str = ""  # auto: the preview Markdown it acted on


@dataclass
class CancelResult:
    cancelled: bool
    session_key: str | None = None


@dataclass
class SessionSummary:
    key: str
    updated_at: datetime | None
    thread_id: str | None
    messages: int  # how many messages a preview would read
    source: str  # "openclaw" or "recorder"


@dataclass
class ListResult:
    sessions: list[SessionSummary]
    resolved_key: str | None  # the one /savenow would use


@dataclass
class UndoResult:
    memory_path: Path
    removed_lines: int


Outcome = PreviewResult | ApplyResult | CancelResult | ListResult | UndoResult


@dataclass
class Extraction:
    session_key: str
    plan: Plan
    pending_id: str | None
    lang: str
    extractor: str = "offline"  # which extractor proposed: "offline" or "llm"

    def to_json(self) -> dict[str, Any]:
        return {
            "session_key": self.session_key,
            "extractor": self.extractor,
            "objects": [p.to_json() for p in self.plan.proposals],
            "dropped": [localize(why, self.lang) for why in self.plan.dropped],
            "pending_id": self.pending_id,
        }


@dataclass
class Button:
    label: str
    action: str  # the service call: "objects_apply", "objects_cancel", "objects_confirm_forget"
    pending_id: str


@dataclass
class Reply:
    text: str
    buttons: list[Button] = field(default_factory=list)
    already_applied: bool = False  # a second press: the message keeps what the first one said


@dataclass
class ObjectsApplyOutcome:
    results: list[Result]
    already_applied: bool = False
    requester: str | None = None  # who asked for the proposal (an admin's press is still their change)


@dataclass(frozen=True)
class BotNotice:
    """What the bot tells the topic, in both languages."""

    en: str
    zh: str
    result: CompactionResult | None = None
    flush: FlushReport | None = None

    def message(self, lang: str = "en") -> str:
        return self.zh if lang.startswith("zh") else self.en

    @classmethod
    def of(cls, said: Text, **details: Any) -> BotNotice:
        return cls(said.render("en"), said.render("zh"), **details)
