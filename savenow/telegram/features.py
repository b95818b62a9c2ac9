"""The memory system's other features in Telegram: ``/recall``, ``/compact``, ``/memory``, and what the
bot does on its own (compaction after a recorded message, idle proposals, daily maintenance).

A thin adapter, like :mod:`savenow.telegram.handlers` (whose helpers it shares): it parses the update,
asks :class:`savenow.access.AccessPolicy` the same questions as ``/savenow`` (a stranger gets the same
first-run answer), calls the feature's service off the event loop, and sends what the service said.

- compaction: :meth:`CompactionService.after_message` after each recorded message (one check per
  session at a time, at most one more waiting: the waiting one reads everything recorded before it
  starts), :meth:`CompactionService.command` for ``/compact`` and ``/compact status``;
- objects: :meth:`ObjectsService.memory_command` for ``/memory …``, :meth:`ObjectsService.press` for
  its buttons (the same pending/TTL/owner machinery as ``/savenow``), :meth:`ObjectsService.idle_proposal`
  once a session has been quiet for ``objects.idle_proposal_minutes`` (off by default), and
  :meth:`ObjectsService.maintain` once a day, both through PTB's JobQueue;
- search: ``/recall <query>`` and ``/savenow search <query>`` through a :data:`Recall` function
  (by default :class:`SearchRecall`: :func:`savenow.search.recall_reply` on one open index).

Time is the injected :class:`~savenow.clock.Clock`'s: the JobQueue only wakes the bot up, the clock says
whether a session really has been idle long enough.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update, User
from telegram.ext import Application, CallbackContext, ContextTypes

from ..access import Scope
from ..clock import Clock
from ..config import Settings
from ..errors import AccessDeniedError, NoPendingError, PendingExpiredError, SaveNowError
from . import i18n
from .i18n import Lang
from .places import KeyboardRef, Place, place_of
from .render import chunk_html, escape

if TYPE_CHECKING:
    from .handlers import SaveNowHandlers

log = logging.getLogger("savenow.telegram")

Recall = Callable[[str, str], str]
"""``recall(query, lang)`` → the reply to ``/recall`` (plain text): top snippets with path:line and date."""

OBJECTS_PREFIX = "mo"
OBJECTS_CALLBACK_PATTERN = r"^mo:[ac]:[A-Za-z0-9_-]{1,16}$"
_ACTIONS = {"objects_apply": "a", "objects_cancel": "c"}
_SERVICE_ACTIONS = {code: action for action, code in _ACTIONS.items()}
MAINTAIN_AT = time(4, 0)  # the daily maintenance, in the configured time zone
MAINTAIN_JOB = "savenow-objects-maintain"
IDLE_JOB = "savenow-idle"


class SearchRecall:
    """``/recall`` through one :class:`~savenow.search.MemorySearch` for the bot's lifetime: the index stays
    open and warm (it is thread-safe), recency follows the injected clock."""

    def __init__(self, settings: Settings, clock: Clock) -> None:
        from ..search import MemorySearch

        self.search = MemorySearch.from_settings(settings, clock=clock)

    def __call__(self, query: str, lang: str) -> str:
        from ..search import recall_reply

        return recall_reply(self.search, query, lang)

    def close(self) -> None:
        self.search.close()


def default_recall(settings: Settings, clock: Clock) -> Recall | None:
    """The search package's reply; None when ``search.enabled`` is false."""
    return SearchRecall(settings, clock) if settings.search.enabled else None


@dataclass(frozen=True)
class _IdleWake:
    """What an idle job checks when it wakes: the scope's activity since, by counter and by clock."""

    place: Place
    key: str
    stamp: int
    since: datetime


@dataclass
class _Speaker:
    """The last trusted user who wrote in a scope: an idle proposal is theirs to apply."""

    user_id: int
    lang: Lang


class FeatureHandlers:
    def __init__(
        self,
        core: SaveNowHandlers,
        application: Application,
        *,
        compaction: Any,
        objects: Any,
        recall: Recall | None,
    ) -> None:
        self.core = core
        self.application = application
        self.compaction = compaction
        self.objects = objects
        self.recall_fn = recall
        self.settings = core.settings
        self._compaction_locks: dict[str, asyncio.Lock] = {}
        self._compaction_waiting: set[str] = set()
        self._activity: dict[str, int] = {}  # scope key → a counter bumped by each recorded message
        self._speakers: dict[str, _Speaker] = {}

    def close(self) -> None:
        close = getattr(self.recall_fn, "close", None)
        if close is not None:
            close()

    # -- shared steps ---------------------------------------------------------------------------

    def _start(self, update: Update) -> tuple[Message, Place, User, Lang, Scope] | None:
        """The message, place, sender, language and scope of a command (None: not ours to answer)."""
        message = update.message
        if message is None or self.core.stopping or not self.core.first_time("message", update.update_id):
            return None
        place = place_of(message)
        user = message.from_user
        if place is None or user is None:
            return None
        lang = self.core.language(user)
        return message, place, user, lang, self.core.scope(place, user, lang)

    async def _allowed(self, context: ContextTypes.DEFAULT_TYPE, place: Place, scope: Scope) -> bool:
        """The one access rule first: a stranger gets the same first-run answer as from /savenow."""
        try:
            self.core.access.require(scope)
        except SaveNowError as error:
            log.info("refused a command from user %s in chat %s", scope.user_id, place.chat_id)
            await self.core.send_text(context, place, escape(error.message(scope.lang)))
            return False
        return True

    async def _answer_with(
        self,
        context: ContextTypes.DEFAULT_TYPE,
        place: Place,
        lang: Lang,
        call: Callable[..., Any],
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        """Run a service call off the loop; a refusal or failure is answered in the chat (None returned)."""
        try:
            return await self.core.run_off_loop(_bound(call, kwargs), *args)
        except SaveNowError as error:
            await self.core.send_text(context, place, escape(error.message(lang)))
        except Exception:
            log.exception("%s failed in chat %s", getattr(call, "__name__", call), place.chat_id)
            await self.core.send_text(context, place, escape(i18n.text("internal_error", lang)))
        return None

    async def _send_long(self, context: ContextTypes.DEFAULT_TYPE, place: Place, text: str) -> None:
        for chunk in chunk_html(escape(text)):
            await self.core.send_text(context, place, chunk)

    def _context(self) -> ContextTypes.DEFAULT_TYPE:
        return CallbackContext(self.application)

    # -- /recall and /savenow search ------------------------------------------------------------

    async def on_recall(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        started = self._start(update)
        if started is None:
            return
        _message, place, _user, _lang, scope = started
        if await self._allowed(context, place, scope):
            await self.recall(context, place, scope, " ".join(context.args or []))

    async def recall(
        self, context: ContextTypes.DEFAULT_TYPE, place: Place, scope: Scope, query: str
    ) -> None:
        """Top snippets from memory, each with path:line and date; allowed users only."""
        self.core.access.require(scope)  # callers asked already; reading memory asks again
        if self.recall_fn is None:
            await self.core.send_text(context, place, escape(i18n.text("recall_unavailable", scope.lang)))
            return
        reply = await self._answer_with(context, place, scope.lang, self.recall_fn, query.strip(), scope.lang)
        if reply is not None:
            await self._send_long(context, place, reply)

    # -- /compact and the automatic compaction ----------------------------------------------------

    async def on_compact(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        started = self._start(update)
        if started is None:
            return
        _message, place, _user, lang, scope = started
        if not await self._allowed(context, place, scope):
            return
        key = self.core.session_key(place)
        await self.core.recordings_done(key)  # what was said before /compact is part of it
        async with self._compaction_lock(key):
            notice = await self._answer_with(
                context,
                place,
                lang,
                self.compaction.command,
                key,
                " ".join(context.args or []),
                lang,
                scope=scope,
            )
        if notice is not None:
            await self._own_flush(notice, scope)
            await self._send_long(context, place, notice.message(lang))

    def after_record(self, place: Place, key: str, user: User | None, *, role: str) -> None:
        """A message of ``key`` was recorded: compaction may be due, and the idle clock restarts."""
        lang = self._note_activity(place, key, user, role=role)
        if self.core.stopping:
            return
        if self.settings.compaction.enabled and key not in self._compaction_waiting:
            self._compaction_waiting.add(key)
            self.core.spawn(self._compact_if_due(place, key, lang))

    async def _compact_if_due(self, place: Place, key: str, lang: Lang) -> None:
        async with self._compaction_lock(key):
            self._compaction_waiting.discard(key)  # a message recorded from now on queues another check
            if self.core.stopping:
                return
            try:
                notice = await self.core.run_off_loop(self.compaction.after_message, key, lang)
                if notice is not None:
                    # The flush wrote for this topic's conversation: its last trusted speaker may undo it.
                    await self._own_flush(notice, self._speaker_scope(place))
            except SaveNowError as error:
                # E.g. a message recorded while it compacted: nothing written; the check that message
                # queued runs next, and the flush's range state keeps it from flushing anything twice.
                log.info("compaction of %s not done now: %s", key, error.en)
                return
            except Exception:
                log.exception("compaction check of %s failed", key)
                return
        if notice is not None:
            await self._send_long(self._context(), place, notice.message(lang))

    async def _own_flush(self, notice: Any, scope: Scope | None) -> None:
        flush = getattr(notice, "flush", None)
        if scope is not None and flush is not None and flush.journal_id:
            await self.core.run_off_loop(self.core.service.record_write_owner, scope, flush.journal_id)

    def _speaker_scope(self, place: Place) -> Scope | None:
        speaker = self._speakers.get(place.scope_key)
        if speaker is None:
            return None
        return Scope(
            chat_id=str(place.chat_id), thread_id=place.thread_id, user_id=str(speaker.user_id),
            chat_type=place.chat_kind, via="chat", lang=speaker.lang,
        )  # fmt: skip

    def _compaction_lock(self, key: str) -> asyncio.Lock:
        return self._compaction_locks.setdefault(key, asyncio.Lock())

    # -- /memory and its buttons --------------------------------------------------------------------

    async def on_memory(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        started = self._start(update)
        if started is None:
            return
        _message, place, _user, lang, scope = started
        if not await self._allowed(context, place, scope):
            return
        argument = " ".join(context.args or [])
        reply = await self._answer_with(
            context, place, lang, self.objects.memory_command, scope, argument, lang
        )
        if reply is not None:
            await self._send_reply(context, place, reply, lang)

    async def _send_reply(
        self, context: ContextTypes.DEFAULT_TYPE, place: Place, reply: Any, lang: Lang
    ) -> None:
        """A service :class:`~savenow.service.results.Reply`: its text, and its buttons on the last part."""
        if not reply.buttons:
            await self._send_long(context, place, reply.text)
            return
        key = _objects_key(place.scope_key)
        pending_id = reply.buttons[0].pending_id
        keyboard = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(b.label, callback_data=_callback(b.action, b.pending_id))
                    for b in reply.buttons
                ]
            ]
        )
        async with self.core.scope_lock(key):
            await self.core.drop_keyboard(context, key)  # a newer proposal: the older loses its buttons
            chunks = chunk_html(escape(reply.text))
            last: Message | None = None
            for index, chunk in enumerate(chunks):
                last = await self.core.send_text(
                    context, place, chunk, keyboard if index == len(chunks) - 1 else None
                )
            if last is None:
                return
            self.core.track_keyboard(key, KeyboardRef(pending_id, place.chat_id, last.message_id))
            self.core.remember_preview(place.chat_id, last.message_id, chunks[-1])
            self.core.schedule_expiry(context, key, pending_id, lang, status="objects_expired")

    async def on_objects_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None or self.core.stopping or not self.core.first_time("callback", update.update_id):
            return
        lang = self.core.language(query.from_user)
        place = place_of(query.message)
        action, pending_id = _parse_callback(query.data or "")
        if place is None or action is None or pending_id is None:
            await self.core.answer(query, i18n.text("gone", lang))
            return
        scope = self.core.scope(place, query.from_user, lang)
        try:
            self.core.access.require(scope)
        except SaveNowError as error:
            await self.core.answer(query, error.message(lang))
            return
        key = _objects_key(place.scope_key)
        async with self.core.scope_lock(key):  # presses one at a time: a double tap applies once
            try:
                reply = await self.core.run_off_loop(self.objects.press, scope, action, pending_id, lang)
            except AccessDeniedError as error:  # someone else's: refused, the buttons stay
                await self.core.answer(query, error.message(lang))
                return
            except (PendingExpiredError, NoPendingError) as error:
                ttl = self.settings.preview_ttl_minutes
                status = i18n.text(
                    "objects_expired" if isinstance(error, PendingExpiredError) else "gone", lang, ttl=ttl
                )
                self._release(key, query.message)
                await self.core.settle(query, context, place, status)
                return
            except SaveNowError as error:
                await self.core.answer(query, error.message(lang))
                return
            except Exception:
                log.exception("memory-object button failed in chat %s", place.chat_id)
                await self.core.answer(query, i18n.text("internal_error", lang))
                return
            self._release(key, query.message)
            status = reply.text
            await self.core.settle(
                query, context, place, status, edit=not reply.already_applied, toast=status.split("\n")[0]
            )

    def _release(self, key: str, message: object) -> None:
        """The pressed message's buttons are going: stop tracking them (expiry, a newer proposal)."""
        if isinstance(message, Message):
            self.core.untrack_keyboard(key, message.message_id)

    # -- idle proposals and daily maintenance (JobQueue) -------------------------------------------

    def _note_activity(self, place: Place, key: str, user: User | None, *, role: str) -> Lang:
        """Restart the scope's idle clock; an idle proposal belongs to the last trusted user who wrote."""
        scope_key = place.scope_key
        stamp = self._activity.get(scope_key, 0) + 1
        self._activity[scope_key] = stamp
        if role == "user" and user is not None and self.core.access.user_trusted(user.id):
            self._speakers[scope_key] = _Speaker(user.id, self.core.language(user))
        speaker = self._speakers.get(scope_key)
        minutes = self.settings.objects.idle_proposal_minutes
        jobs = self.application.job_queue
        if minutes and jobs is not None and speaker is not None:
            name = f"{IDLE_JOB}:{scope_key}"
            for job in jobs.get_jobs_by_name(name):
                job.schedule_removal()
            data = _IdleWake(place, key, stamp, self.core.clock.now())
            jobs.run_once(self._idle, when=timedelta(minutes=minutes), data=data, name=name)
        return speaker.lang if speaker else self.core.language(user)

    async def _idle(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        job = context.job
        if job is None or self.core.stopping or not isinstance(job.data, _IdleWake):
            return
        wake = job.data
        place, key = wake.place, wake.key
        if self._activity.get(place.scope_key) != wake.stamp:
            return  # someone wrote since: a newer job waits
        minutes = self.settings.objects.idle_proposal_minutes or 0
        left = wake.since + timedelta(minutes=minutes) - self.core.clock.now()
        if left > timedelta(0):  # woken early by the clock: wait for the rest
            jobs = context.job_queue
            if jobs is not None:
                jobs.run_once(self._idle, when=left, data=job.data, name=job.name)
            return
        scope = self._speaker_scope(place)
        if scope is None:
            return
        try:
            self.core.access.require(scope)
            self.core.access.require_session_key(scope, key)
            reply = await self.core.run_off_loop(self.objects.idle_proposal, scope, key, scope.lang)
        except SaveNowError as error:
            log.info("no idle proposal for %s: %s", key, error.en)
            return
        except Exception:
            log.exception("idle proposal for %s failed", key)
            return
        if reply is not None:
            await self._send_reply(context, place, reply, scope.lang)

    def schedule_maintenance(self) -> None:
        """``savenow objects maintain`` once a day (idempotent, so a restart that repeats it is harmless)."""
        jobs = self.application.job_queue
        if jobs is None:
            log.warning("no JobQueue (python-telegram-bot[job-queue]): the daily objects maintenance is off")
            return
        when = MAINTAIN_AT.replace(tzinfo=self.core.clock.now().tzinfo)
        jobs.run_daily(self._maintain, time=when, name=MAINTAIN_JOB)

    async def _maintain(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        if self.core.stopping:
            return
        try:
            report = await self.core.run_off_loop(self.objects.maintain)
        except Exception:
            log.exception("the daily memory-object maintenance failed")
            return
        log.info("memory-object maintenance: %s", {k: v for k, v in report.items() if v})


def _objects_key(scope_key: str) -> str:
    """The objects' buttons of a scope are tracked apart from its /savenow preview's."""
    return f"objects:{scope_key}"


def _callback(action: str, pending_id: str) -> str:
    return f"{OBJECTS_PREFIX}:{_ACTIONS[action]}:{pending_id}"


def _parse_callback(data: str) -> tuple[str | None, str | None]:
    parts = data.split(":")
    if len(parts) == 3 and parts[0] == OBJECTS_PREFIX and parts[1] in _SERVICE_ACTIONS:
        return _SERVICE_ACTIONS[parts[1]], parts[2] or None
    return None, None


def _bound(call: Callable[..., Any], kwargs: dict[str, Any]) -> Callable[..., Any]:
    return functools.partial(call, **kwargs) if kwargs else call
