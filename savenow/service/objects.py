"""Structured memory objects as a service (DESIGN §14), over :mod:`savenow.objects`; nothing of Telegram.

    svc = ObjectsService(settings, clock=..., sessions=NotesService(...))
    svc.extract(scope, key)          -> Extraction   (a preview; stores a pending, writes no object)
    svc.apply(scope, pending_id)     -> ApplyOutcome (TTL, scope and owner checked, idempotent)
    svc.cancel(scope)
    svc.upsert(objects) / svc.correct(objects) / svc.forget(ref, purge) / svc.undo() / svc.maintain()
    svc.list() / svc.find(query) / svc.show(ref)

For the Telegram layer (wired by the bot): :meth:`memory_command` answers ``/memory …`` and
:meth:`idle_proposal` the idle-session post, each as a :class:`Reply` — the text in the
user's language and the buttons, each naming the service call it triggers.

Every call made for a chat asks :class:`savenow.access.AccessPolicy` first (DESIGN §3.1): extract
reads a session through the notes service, which checks it; apply, cancel and ``/memory`` check
the requester here, and only the requester or an admin may press a proposal's buttons.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..access import AccessPolicy, Scope
from ..clock import Clock, load_timezone
from ..errors import AccessDeniedError, BadInputError, NoPendingError, ObjectNotFoundError
from ..messages import Text
from ..objects import storage
from ..objects.extract import ObjectExtractor, Plan, Proposal, plan
from ..objects.model import MemoryObject, norm_name, parse_object
from ..objects.store import ObjectStore, Result, Stored, effective_confidence
from ..objects.texts import text
from ..pending import PendingPreview, PendingStore, check_pending, new_pending_id
from ..storage.files import read_exact
from ..storage.locks import file_lock
from ..text.normalize import normalize, similarity
from .notes import NotesService
from .results import Button, Extraction, Reply
from .results import ObjectsApplyOutcome as ApplyOutcome

if TYPE_CHECKING:
    from ..config import Settings


class ObjectsService:
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        sessions: NotesService | None = None,
        extractor: ObjectExtractor | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock or Clock.from_env(load_timezone(settings.timezone))
        self.store = ObjectStore(settings.workspace, self.clock)
        self._sessions = sessions
        self._extractor = extractor
        self._pending = PendingStore(settings.state_dir)
        self.access = AccessPolicy.from_settings(settings)

    @property
    def sessions(self) -> NotesService:
        if self._sessions is None:
            self._sessions = NotesService(self.settings, clock=self.clock)
        return self._sessions

    @property
    def extractor(self) -> ObjectExtractor:
        if self._extractor is None:
            from ..objects.engines import build_object_extractor

            self._extractor = build_object_extractor(self.settings)
        return self._extractor

    # -- extract / apply ------------------------------------------------------------------------

    def extract(self, scope: Scope, key: str | None = None, *, lang: str = "en") -> Extraction:
        session, messages = self.sessions.read_session(scope, key)
        stored = self.store.load()
        proposed = self.extractor.propose(messages, stored)
        result = plan(proposed.candidates, self.store, stored)
        result.dropped[:0] = proposed.dropped  # what the LLM's answer had that failed checks
        pending_id = None
        if result.writes:
            pending_id = self._save_pending(
                scope, "objects", [p.to_json() for p in result.writes], session.key
            )
        else:
            self._pending.delete(self._pending_key(scope))
        return Extraction(
            session_key=session.key,
            plan=result,
            pending_id=pending_id,
            lang=lang,
            extractor=proposed.extractor,
        )

    def apply(self, scope: Scope, pending_id: str | None = None) -> ApplyOutcome:
        self.access.require(scope)
        path = self._pending.path(self._pending_key(scope))
        with file_lock(path, self.settings.workspace):
            pending, data = self._load_pending(scope, pending_id)
            if pending.appliedAt:
                return ApplyOutcome(results=[], already_applied=True)
            if data.get("kind") == "forget":
                results = [self.store.forget(str(data["objects"][0]["id"]))]
            else:
                results = self._apply_objects(data["objects"])
            pending.appliedAt = self.clock.now().isoformat()
            storage.write_json(path, {**data, **pending.to_json()})
        return ApplyOutcome(results=results, requester=pending.userId)

    def cancel(self, scope: Scope, pending_id: str | None = None) -> None:
        self.access.require(scope)
        self._load_pending(scope, pending_id)
        self._pending.delete(self._pending_key(scope))

    def _apply_objects(self, items: list[dict[str, Any]]) -> list[Result]:
        results = []
        for item in items:
            obj = parse_object(
                {k: v for k, v in item.items() if k not in ("op", "id")}, Text("objects.where.pending")
            )
            results += self.store.upsert(
                [obj], remember=bool(item.get("remember")), allow_near=bool(item.get("variant"))
            )
        return results

    def _pending_key(self, scope: Scope) -> str:
        return f"objects:{scope.pending_key}"

    def _save_pending(
        self, scope: Scope, kind: str, objects: list[dict[str, Any]], session_key: str | None
    ) -> str:
        now = self.clock.now()
        pending = PendingPreview(
            sessionKey=session_key, messageThreadId=scope.thread_id, chatId=scope.chat_id, userId=scope.user_id,
            generatedAt=now.isoformat(), memoryPath=str(self.store.root), entries=[],
            expiresAt=(now + timedelta(minutes=self.settings.preview_ttl_minutes)).isoformat(),
            id=new_pending_id(),
        )  # fmt: skip
        path = self._pending.path(self._pending_key(scope))
        with file_lock(path, self.settings.workspace):
            storage.write_json(path, {**pending.to_json(), "kind": kind, "objects": objects})
        return pending.id

    def _load_pending(self, scope: Scope, pending_id: str | None) -> tuple[PendingPreview, dict[str, Any]]:
        path = self._pending.path(self._pending_key(scope))
        data = storage.read_json(path, None)
        if not isinstance(data, dict) or not isinstance(data.get("objects"), list):
            raise NoPendingError(Text("objects.no_pending"))
        pending = check_pending(
            PendingPreview.from_json(data), now=self.clock.now(), thread_id=scope.thread_id or "",
            chat_id=scope.chat_id or "",
        )  # fmt: skip
        if pending_id is not None and pending.id != pending_id:
            raise NoPendingError(Text("pending.replaced"))
        if (
            pending.userId
            and scope.user_id
            and pending.userId != scope.user_id
            and not self.access.is_admin(scope)
        ):
            raise AccessDeniedError(Text("objects.not_your_buttons"))
        return pending, data

    # -- direct operations ------------------------------------------------------------------------

    def upsert(
        self, objects: list[MemoryObject], *, remember: bool = False, allow_near: bool = False
    ) -> list[Result]:
        return self.store.upsert(objects, remember=remember, allow_near=allow_near)

    def correct(self, objects: list[MemoryObject]) -> list[Result]:
        return self.store.upsert(objects, correct=True, remember=True, allow_near=False)

    def forget(self, ref: str, *, purge: bool = False) -> Result:
        try:
            return self.store.forget(ref, purge=purge)
        except ObjectNotFoundError:
            if purge:  # already forgotten: --purge deletes its trash copy
                return self.store.purge_trash(ref)
            raise

    def undo(self) -> dict[str, Any]:
        return self.store.undo()

    def maintain(self) -> dict[str, Any]:
        return self.store.maintain()

    def list_objects(self) -> list[dict[str, Any]]:
        return [self.summary(item) for item in self.store.load()]

    def show(self, ref: str) -> dict[str, Any]:
        item = self.store.find(ref)
        return {**self.summary(item), **item.obj.to_json(), "meta": item.parsed.meta}

    def find(self, query: str, limit: int = 8) -> list[dict[str, Any]]:
        """Objects whose name, summary or lists mention the query (both languages, no index needed)."""
        wanted = normalize(query)
        scored = []
        for item in self.store.load():
            body = " ".join([item.obj.label, *item.obj.aliases, item.obj.summary, item.obj.detail or "",
                             *item.obj.facts, *item.obj.recent_conclusions, *item.obj.open_questions])  # fmt: skip
            folded = normalize(body)
            hit = wanted.replace(" ", "") in folded.replace(" ", "")
            score = 1.0 if hit else max(similarity(query, item.obj.label), _word_share(wanted, folded))
            if score >= 0.5:
                scored.append((score, item))
        scored.sort(key=lambda pair: -pair[0])
        return [self.summary(item) for _, item in scored[:limit]]

    def summary(self, item: Stored) -> dict[str, Any]:
        obj, meta = item.obj, item.parsed.meta
        data: dict[str, Any] = {"id": item.id, "type": obj.type}
        for name in ("name", "category", "key", "title", "status"):
            if getattr(obj, name):
                data[name] = getattr(obj, name)
        data["summary"] = obj.summary
        data["path"] = str(item.path.relative_to(self.settings.workspace))
        confidence = effective_confidence(obj, meta.get("confirmed"), self.clock.now())
        if confidence is not None:
            data["confidence"] = confidence
        return data

    # -- Telegram-facing replies --------------------------------------------------------------------

    def memory_command(self, scope: Scope, argument: str, lang: str = "en") -> Reply:
        """``/memory``, ``/memory <query>``, ``/memory forget <name>``, ``/memory undo``.

        The requester must be allowed in the scope's chat (DESIGN §3.1); from a chat, undo takes back
        only a change its requester made through the chat, unless they are an admin."""
        self.access.require(scope)
        head, _, rest = argument.strip().partition(" ")
        if not head:
            return self._list_reply(
                self.list_objects(), text("list_header", lang, count=len(self.list_objects())), lang
            )
        if head.casefold() == "undo":
            self._require_own_change(scope)
            done = self.undo()
            return Reply(text("undone", lang, op=done["undid"]))
        if head.casefold() == "forget":
            if not rest.strip():
                return Reply(text("usage", lang))
            try:
                item = self.store.find(rest.strip())
            except ObjectNotFoundError:  # the store's message names a CLI command; the chat has its own
                return Reply(text("not_found", lang, name=rest.strip()))
            pending_id = self._save_pending(scope, "forget", [{"id": item.id}], None)
            return Reply(
                text("forget_confirm", lang, label=item.obj.label),
                [Button(text("button_forget", lang), "objects_apply", pending_id),
                 Button(text("button_cancel", lang), "objects_cancel", pending_id)],
            )  # fmt: skip
        found = self.find(argument.strip())
        if not found:
            return Reply(text("found_none", lang, query=argument.strip()))
        return self._list_reply(found, text("found_header", lang, query=argument.strip()), lang)

    def press(self, scope: Scope, action: str, pending_id: str, lang: str = "en") -> Reply:
        """What a button does: ``objects_apply`` or ``objects_cancel`` (requester or admin only)."""
        self.access.require(scope)
        if action == "objects_cancel":
            self.cancel(scope, pending_id)
            return Reply(text("cancelled", lang))
        if action != "objects_apply":
            raise BadInputError(Text("objects.unknown_action", action=action))
        before = self.store.last_change_id()
        outcome = self.apply(scope, pending_id)
        self._record_owner(scope, before, outcome.requester)
        if outcome.already_applied:
            return Reply(text("already_applied", lang), already_applied=True)
        if len(outcome.results) == 1 and outcome.results[0].op in ("forget", "purge"):
            return Reply(text("forgotten", lang, label=outcome.results[0].label))
        count = {op: sum(r.op == op for r in outcome.results) for op in ("create", "update", "correct")}
        skipped = len(outcome.results) - sum(count.values())
        return Reply(text("applied", lang, created=count["create"], updated=count["update"] + count["correct"],
                          skipped=skipped))  # fmt: skip

    def idle_proposal(self, scope: Scope, key: str | None = None, lang: str = "en") -> Reply | None:
        """What the bot posts when a topic's session went idle; None when there is nothing to keep."""
        extraction = self.extract(scope, key, lang=lang)
        if not extraction.plan.writes or extraction.pending_id is None:
            return None
        return Reply(
            render_proposals(extraction.plan, lang, self.settings.preview_ttl_minutes),
            [Button(text("button_apply", lang), "objects_apply", extraction.pending_id),
             Button(text("button_cancel", lang), "objects_cancel", extraction.pending_id)],
        )  # fmt: skip

    # -- who changed what (for /memory undo from a chat) ----------------------------------------------

    @property
    def _owners_path(self) -> Path:
        return self.settings.state_dir / "objects" / "owners.json"

    def _record_owner(self, scope: Scope, before: str | None, requester: str | None) -> None:
        """Remember which chat user a change made from the chat belongs to."""
        change = self.store.last_change_id()
        if scope.via != "chat" or change is None or change == before:
            return
        with file_lock(self._owners_path, self.settings.workspace):
            owners = storage.read_json(self._owners_path, {})
            owners = owners if isinstance(owners, dict) else {}
            owners[change] = requester or scope.user_id
            storage.write_json(self._owners_path, dict(list(owners.items())[-MAX_OWNERS:]))

    def _require_own_change(self, scope: Scope) -> None:
        if self.access.is_admin(scope):
            return
        change = self.store.last_change_id()
        owners = storage.read_json(self._owners_path, {})
        if change is not None and (not isinstance(owners, dict) or owners.get(change) != scope.user_id):
            raise AccessDeniedError(Text("objects.not_your_change"))

    def _list_reply(self, items: list[dict[str, Any]], header: str, lang: str) -> Reply:
        if not items:
            return Reply(text("list_empty", lang))
        lines = [header]
        for item in items:
            label = item.get("name") or item.get("title") or f"{item.get('category')}/{item.get('key')}"
            status = f" [{item['status']}]" if item.get("type") == "topic" else ""
            lines.append(f"• {item['type']}: {label}{status} — {item['summary'][:80]}")
        return Reply("\n".join(lines))


MAX_OWNERS = 500  # changes whose chat requester is remembered; far more than anyone undoes


def _word_share(query: str, body: str) -> float:
    words = [w for w in query.split() if len(w) > 1]
    if not words:
        return 0.0
    return sum(1 for w in words if w in body) / len(words)


def render_proposals(result: Plan, lang: str = "en", ttl_minutes: int = 30) -> str:
    """The preview a user approves: one line per object, near-matches asked as "update X?"."""
    if not result.proposals:
        return text("nothing_to_keep", lang)
    lines = [text("proposal_header", lang)]
    for number, proposal in enumerate(result.proposals, 1):
        lines.append(_proposal_line(number, proposal, lang))
    if result.writes:
        lines.append(text("expires", lang, minutes=ttl_minutes))
    return "\n".join(lines)


def _proposal_line(number: int, proposal: Proposal, lang: str) -> str:
    obj = proposal.obj
    op = text(f"op_{proposal.op}", lang)
    label = obj.label
    if proposal.variant:
        label = text("near_match", lang, stored=obj.label, variant=proposal.variant)
    new = [*obj.facts, *obj.recent_conclusions, *obj.open_questions]
    detail = "; ".join(new) if new else obj.summary
    status = f" → {obj.status}" if obj.type == "topic" and obj.status else ""
    return f"{number}. {op} {obj.type} — {label}{status}: {detail[:200]}"


def read_objects_file(path: Path) -> Any:
    """The JSON of an ``--json-file`` (a BOM is allowed)."""
    from ..errors import FileMissingError

    raw = read_exact(path)
    if raw is None:
        raise FileMissingError(Text("objects.file_missing", path=path))
    try:
        return json.loads(raw.lstrip("\ufeff"))
    except ValueError as exc:
        raise BadInputError(Text("objects.bad_json", path=path, detail=exc)) from exc


__all__ = ["ApplyOutcome", "Button", "Extraction", "ObjectsService", "Reply", "norm_name", "render_proposals"]
