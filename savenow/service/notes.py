"""The /savenow feature (DESIGN §2–§3): preview, auto, apply, cancel, list, undo — nothing of Telegram.

    notes = NotesService(settings, clock=Clock(...), extractor=None)
    notes.preview(scope, key=None, day=None)      -> PreviewResult   (stores a pending preview)
    notes.auto(scope, key=None, day=None)         -> ApplyResult     (writes directly)
    notes.apply(scope, pending_id=None)           -> ApplyResult
    notes.cancel(scope, pending_id=None)          -> CancelResult
    notes.list_sessions(scope)                    -> ListResult
    notes.undo(scope=None)                        -> UndoResult

The routing table of §2 is :meth:`savenow.service.SaveNowService.run`. Methods are synchronous and
do file (and, with an LLM, network) I/O: the Telegram layer calls them off the event loop. Refusals
raise ``SaveNowError`` subclasses. Every method first asks :attr:`NotesService.access` (DESIGN §3.1,
:mod:`savenow.access`) whether the scope's user may act in its chat, and every explicit key whether
it belongs to that chat.

:func:`savenow.memory.draft.draft` is the pipeline both this service and the skill's drop-ins
(:mod:`savenow.dropins`) run: compare entries with the parsed memory file and render the §6 preview.
This module imports no pydantic; the service's session, settings, comparer and writer
collaborators are imported where they are used, so ``list`` and ``cancel`` load none of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ..clock import Clock, load_timezone
from ..errors import (
    AccessDeniedError,
    AlreadyAppliedError,
    ForbiddenTargetError,
    NoPendingError,
    SessionResolutionError,
)
from ..memory.document import MemoryDocument
from ..messages import Text, localize
from ..models import ChatMessage, Entry, ExtractionResult, redact_entries, redaction_notice
from ..pending import PendingPreview, PendingStore
from ..storage.files import atomic_write, read_exact, read_json
from ..storage.locks import file_lock
from .results import ApplyResult, CancelResult, ListResult, PreviewResult, SessionSummary, UndoResult

if TYPE_CHECKING:
    from ..access import AccessPolicy, Scope
    from ..config import Settings
    from ..extract.base import Extractor
    from ..memory.draft import Draft
    from ..memory.writer import WriteOutcome
    from ..sessions.counts import MessageCounts
    from ..sessions.resolve import SessionCatalog
    from ..sessions.store import SessionInfo


@dataclass
class _Proposal:
    """A session read, extracted and compared against one day's memory file."""

    session: SessionInfo
    memory_path: Path
    day: date
    document: MemoryDocument  # today's file, parsed once: the comparer and the writer share it
    draft: Draft
    extraction: ExtractionResult
    memory_text: str | None  # today's file as previewed (None: it does not exist yet)
    notices: list[str]  # shown under the candidates: the extractor's, then the transcript's


class NotesService:
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        extractor: Extractor | None = None,
        catalog: SessionCatalog | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock or Clock.from_env(load_timezone(settings.timezone))
        self._extractor = extractor
        self._catalog = catalog
        self.pending = PendingStore(settings.state_dir)
        self.access = _access_policy(settings)
        if settings.search.enabled:  # every write the service makes updates the search index at once
            from ..search.hooks import note_memory_write
            from ..storage.journal import on_committed_change

            on_committed_change(note_memory_write)

    # -- collaborators, built on first use so `list` never builds an LLM client --------------

    @property
    def extractor(self) -> Extractor:
        if self._extractor is None:
            from ..extract import build_extractor

            self._extractor = build_extractor(self.settings)
        return self._extractor

    @property
    def catalog(self) -> SessionCatalog:
        if self._catalog is None:
            from ..sessions.resolve import SessionCatalog

            self._catalog = SessionCatalog.from_settings(self.settings)
        return self._catalog

    # -- the commands -------------------------------------------------------------------------

    def preview(self, scope: Scope, key: str | None = None, day: date | None = None) -> PreviewResult:
        proposal = self._propose(scope, key, day)
        entries = proposal.draft.entries
        pending_id = None
        if proposal.draft.anything_to_apply:
            pending = self._pending_for(scope, proposal, entries)
            self.pending.save(scope.pending_key, pending)
            pending_id = pending.id
        else:
            # A newer preview replaces the older one, even when it found nothing new to apply.
            self.pending.delete(scope.pending_key)
        return PreviewResult(
            session_key=proposal.session.key,
            memory_path=proposal.memory_path,
            entries=entries,
            markdown=proposal.draft.markdown,
            pending_id=pending_id,
            notices=proposal.notices,
            usage=proposal.extraction.usage,
        )

    def auto(self, scope: Scope, key: str | None = None, day: date | None = None) -> ApplyResult:
        proposal = self._propose(scope, key, day)
        entries = proposal.draft.entries
        outcome = self._write(proposal.memory_path, entries, proposal.day, proposal.document)
        self._record_owner(scope, outcome)
        return self._apply_result(
            proposal.session.key, proposal.memory_path, entries, outcome, proposal.draft.markdown
        )

    def apply(self, scope: Scope, pending_id: str | None = None) -> ApplyResult:
        self.access.require(scope)
        pending = self._own_pending(scope, pending_id)
        memory_path = self._checked_memory_path(Path(pending.memoryPath))
        # Checks TTL and scope, writes and marks the preview applied, all under the pending's lock,
        # so a double tap or a re-delivered update writes once.
        from ..applying import apply_from_store

        pending, outcome = apply_from_store(
            self.pending,
            scope.pending_key,
            now=self.clock.now(),
            workspace=self.settings.workspace,
            thread_id=scope.thread_id or "",
            chat_id=scope.chat_id or "",
            pending_id=pending.id,
            check_target=self._checked_memory_path,
        )
        self._record_owner(
            scope, outcome, requester=pending.userId
        )  # an admin's press: still the asker's write
        return self._apply_result(pending.sessionKey or "", memory_path, pending.entry_objects(), outcome, "")

    def cancel(self, scope: Scope, pending_id: str | None = None) -> CancelResult:
        self.access.require(scope)
        pending = self._own_pending(scope, pending_id)
        if pending.appliedAt:
            raise AlreadyAppliedError(Text(f"pending.already_applied_cancel.{_surface(scope)}"))
        self.pending.delete(scope.pending_key)
        return CancelResult(cancelled=True, session_key=pending.sessionKey)

    def list_sessions(self, scope: Scope) -> ListResult:
        self.access.require(scope)
        if scope.chat_id is None or scope.kind == "direct":
            sessions = [self._resolve(scope, None)]
        else:
            sessions = self.catalog.candidates(scope.chat_id, scope.thread_id)
        from ..sessions.counts import MessageCounts

        counts = MessageCounts(self.settings.state_dir)
        summaries = [self._summary(info, counts) for info in sessions]
        counts.save()
        return ListResult(sessions=summaries, resolved_key=sessions[0].key if sessions else None)

    def undo(self, scope: Scope | None = None) -> UndoResult:
        """Take the last write out again; from a chat, only its requester or an admin may."""
        from ..access import Scope
        from ..storage.journal import MEMORY_KIND, last_write, undo_last

        memory_only = frozenset({MEMORY_KIND})  # memory objects have their own undo (DESIGN §14)

        scope = scope or Scope()
        self.access.require(scope)
        checked: str | None = None
        if not self.access.is_admin(scope):
            record, _undone = last_write(self.settings.workspace, memory_only)
            owner = self._owners().get(record.id) if record is not None else None
            if record is not None and (owner is None or owner.get("userId") != scope.user_id):
                raise AccessDeniedError(Text("access.not_your_write"))
            checked = record.id if record is not None else None
        memory_path, removed = undo_last(self.settings.workspace, expected_id=checked, kinds=memory_only)
        return UndoResult(memory_path=Path(memory_path), removed_lines=removed)

    def read_session(self, scope: Scope, key: str | None = None) -> tuple[SessionInfo, list[ChatMessage]]:
        """The session a preview would read, and its cleaned messages (the objects extractor uses this)."""
        session = self._resolve(scope, key)
        return session, list(self.catalog.read_messages(session, self.settings.transcript_limit).messages)

    # -- steps --------------------------------------------------------------------------------

    def memory_path(self, day: date) -> Path:
        return self.settings.memory_dir / f"{day.isoformat()}.md"

    def _resolve(self, scope: Scope, key: str | None) -> SessionInfo:
        self.access.require(scope)
        if key is not None:
            from ..sessions.keys import validate_session_key

            key = validate_session_key(key)  # a path-like key is refused before anything is looked up
            self.access.require_session_key(scope, key)
        if scope.via == "local":
            self._require_a_store()  # a chat is told which key to use instead, never a server path
        if scope.chat_id is None and key is None and scope.target_session_key is None:
            # The command line with no chat: the agent's main session (§3, a direct chat without topics).
            from ..sessions.keys import main_session_key

            key = main_session_key(self.settings.agent_id)
        return self.catalog.resolve(
            chat_id=scope.chat_id,
            thread_id=scope.thread_id,
            chat_type=scope.kind if scope.chat_id is not None else None,
            explicit_key=key,
            target_key=scope.target_session_key,
            allow_main=self.access.is_admin(scope),
        )

    def _require_a_store(self) -> None:
        """Say where savenow looked when there is no session store at all (a fresh machine, a typo)."""
        from ..sessions.era import any_store_present, store_locations

        if any_store_present(self.settings):
            return
        where = " or ".join(
            str(place.parent if place.name == "sessions.json" else place)
            for place in store_locations(self.settings)
        )
        raise SessionResolutionError(Text("session.no_store", where=where))

    def _propose(self, scope: Scope, key: str | None, day: date | None) -> _Proposal:
        from ..memory.draft import draft  # the comparer (rapidfuzz) loads here, not for `list` or `cancel`

        session = self._resolve(scope, key)
        transcript = self.catalog.read_messages(session, self.settings.transcript_limit)
        day = day or self.clock.today()
        memory_path = self.memory_path(day)
        memory_text = read_exact(memory_path)
        document = MemoryDocument.parse(memory_text)
        sections = document.memory_sections()
        extraction = self.extractor.extract(transcript.messages, sections)
        _, redacted = redact_entries(extraction.entries, self.settings.secret_values)
        notices = [localize(notice, scope.lang) for notice in extraction.notices]
        if redacted:
            notices.append(redaction_notice(redacted, scope.lang))
        if transcript.malformed_lines:
            notices.append(
                Text("session.malformed_lines", count=transcript.malformed_lines).render(scope.lang)
            )
        if transcript.scan_stopped:
            notices.append(Text("session.scan_stopped").render(scope.lang))
        proposed = draft(
            extraction.entries,
            document,
            memory_label=f"memory/{day.isoformat()}.md",
            ttl_minutes=self.settings.preview_ttl_minutes,
            dropped=extraction.dropped,
            notices=notices,
            lang=scope.lang,
            surface=_surface(scope),
        )
        return _Proposal(
            session=session,
            memory_path=memory_path,
            day=day,
            document=document,
            draft=proposed,
            extraction=extraction,
            memory_text=memory_text,
            notices=notices,
        )

    def _pending_for(self, scope: Scope, proposal: _Proposal, entries: list[Entry]) -> PendingPreview:
        return PendingPreview.create(
            now=self.clock.now(),
            ttl_minutes=self.settings.preview_ttl_minutes,
            memory_path=proposal.memory_path,
            day=proposal.day,
            entries=entries,
            memory_text=proposal.memory_text,
            session_key=proposal.session.key,
            thread_id=scope.thread_id,
            chatId=scope.chat_id,
            userId=scope.user_id,
        )

    def _own_pending(self, scope: Scope, pending_id: str | None) -> PendingPreview:
        pending = self.pending.load(scope.pending_key)
        if pending is None:
            raise NoPendingError(Text("pending.none"))
        if pending_id is not None and pending.id != pending_id:
            raise NoPendingError(Text("pending.replaced"))
        if pending.userId != scope.user_id and not self.access.is_admin(scope):
            raise AccessDeniedError(Text("access.not_your_preview"))
        return pending

    def _checked_memory_path(self, path: Path) -> Path:
        """The chat commands only ever write <workspace>/memory/YYYY-MM-DD.md (DESIGN §5.3)."""
        memory_dir = self.settings.memory_dir.resolve()
        resolved = path.resolve()
        if resolved.parent != memory_dir or not _is_daily_name(resolved.name):
            raise ForbiddenTargetError(Text("write.forbidden_target", path=path, memory_dir=memory_dir))
        return path

    def _write(
        self, memory_path: Path, entries: list[Entry], day: date, document: MemoryDocument
    ) -> WriteOutcome:
        from ..memory.writer import write_entries

        self._checked_memory_path(memory_path)
        return write_entries(
            memory_path,
            entries,
            workspace=self.settings.workspace,
            now=self.clock.now(),
            day=day,
            document=document,  # re-read under the lock; parsed again only if the file changed since
        )

    # -- who wrote what (for undo from a chat) ----------------------------------------------

    @property
    def _owners_path(self) -> Path:
        return self.settings.state_dir / "write-owners.json"

    def _owners(self) -> dict[str, dict[str, str | None]]:
        data = read_json(self._owners_path, "write owners")
        return data if isinstance(data, dict) else {}

    def _record_owner(self, scope: Scope, outcome: WriteOutcome, requester: str | None = None) -> None:
        """Remember which chat user asked for a journaled write, so only they (or an admin) undo it."""
        self.record_write_owner(scope, outcome.journal_id, requester=requester)

    def record_write_owner(
        self, scope: Scope, journal_id: str | None, *, requester: str | None = None
    ) -> None:
        """A journaled write made for a chat user (a preview they applied, the compaction flush of their
        topic): they, or an admin, may undo it from the chat."""
        if scope.via != "chat" or not journal_id:
            return
        path = self._owners_path
        with file_lock(path, self.settings.workspace):
            owners = self._owners()
            owners[journal_id] = {"userId": requester or scope.user_id, "chatId": scope.chat_id}
            if len(owners) > MAX_OWNERS:  # oldest first (dicts keep insertion order)
                owners = dict(list(owners.items())[-MAX_OWNERS:])
            atomic_write(path, json.dumps(owners, ensure_ascii=False))

    def _apply_result(
        self, session_key: str, memory_path: Path, entries: list[Entry], outcome: WriteOutcome, markdown: str
    ) -> ApplyResult:
        return ApplyResult(
            session_key=session_key,
            memory_path=memory_path,
            entries=entries,
            written=outcome.written,
            already_applied=outcome.already_applied,
            undone_since=outcome.undone_since,
            applied_at=outcome.applied_at,
            created_file=outcome.created_file,
            added_titles=list(outcome.added_titles),
            merged_titles=list(outcome.merged_titles),
            skipped_titles=list(outcome.skipped_titles),
            markdown=markdown,
        )

    def _summary(self, info: SessionInfo, counts: MessageCounts) -> SessionSummary:
        limit = self.settings.transcript_limit
        messages = counts.count(info, limit, lambda: self.catalog.read_messages(info, limit))
        updated = (
            datetime.fromtimestamp(info.updated_at_ms / 1000, tz=UTC).astimezone(self.clock.now().tzinfo)
            if info.updated_at_ms
            else None
        )
        return SessionSummary(
            key=info.key,
            updated_at=updated,
            thread_id=info.thread_id,
            messages=messages,
            source=info.source,
        )


MAX_OWNERS = 500  # write owners kept for undo; far more than anyone undoes


def _surface(scope: Scope) -> Literal["chat", "cli"]:
    if scope.surface is not None:
        return scope.surface
    return "chat" if scope.via == "chat" else "cli"


def _is_daily_name(name: str) -> bool:
    stem, dot, suffix = name.partition(".")
    if suffix != "md" or not dot:
        return False
    try:
        date.fromisoformat(stem)
    except ValueError:
        return False
    return True


def _access_policy(settings: Settings) -> AccessPolicy:
    from ..access import AccessPolicy

    return AccessPolicy.from_settings(settings)
