"""The Telegram handlers: parse an update, call the service off the event loop, render the outcome.

No behaviour lives here beyond Telegram's own concerns (who may press what,
which topic to answer in, how a preview is cut into messages); the routing
table and every memory rule belong to :class:`savenow.service.SaveNowService`.

Nothing here blocks the event loop: service calls run on a dedicated pool of
daemon threads (a slow extractor in one topic never delays another chat, nor the
host bot's own ``asyncio.to_thread`` work, nor the process's exit), the
recorder's file appends run through ``asyncio.to_thread``, and every handler is
registered with ``block=False``.

Load is bounded: one extraction per topic at a time (a second ``/savenow`` there
is told so), at most ``max_pending`` extractions running or waiting in all, and
a per-user cooldown between extractions. :meth:`SaveNowHandlers.stop_now`
cancels whatever is still running, so the bot stops at once even after a burst.

Who may do what is not decided here: :class:`savenow.access.AccessPolicy` is
asked, the same rules the service applies.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import warnings
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any, TypeVar

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    LinkPreviewOptions,
    Message,
    Update,
    User,
)
from telegram.constants import ChatAction, ParseMode
from telegram.error import RetryAfter, TelegramError
from telegram.ext import ContextTypes

from ..access import AccessPolicy, Scope
from ..clock import Clock
from ..config import Settings
from ..errors import (
    AccessDeniedError,
    AlreadyAppliedError,
    NoPendingError,
    PendingExpiredError,
    SaveNowError,
)
from ..service import ApplyResult, CancelResult, ListResult, Outcome, PreviewResult, SaveNowApi, UndoResult
from ..sessions.keys import telegram_session_key
from . import i18n
from .executor import DaemonExecutor
from .features import FeatureHandlers
from .i18n import Lang
from .places import KeyboardRef, Place, place_of
from .render import chunk_html, escape, render_preview, telegram_length

log = logging.getLogger("savenow.telegram")

T = TypeVar("T")

CALLBACK_PREFIX = "sn"
CALLBACK_APPLY = "a"
CALLBACK_CANCEL = "c"
# Our own short data, and the literal commands the OpenClaw skill puts on its buttons.
CALLBACK_PATTERN = r"^(sn:[ac]:[A-Za-z0-9_-]{1,16}|/savenow (apply|cancel))$"
NEW_SESSION_COMMANDS = frozenset({"new", "reset"})
OWN_COMMANDS = frozenset({"savenow", "recall", "compact", "memory"})  # never recorded as conversation
MAX_OWN_RETRIES = 3  # RetryAfter retries when the host application has no rate limiter
CALLBACK_ANSWER_LIMIT = 190  # Telegram allows 200 characters in a callback answer
SEEN_UPDATES = 2048
KNOWN_PREVIEWS = 512  # previews whose HTML is kept, so a later press keeps the diff when it edits
TELEGRAM_TEXT_LIMIT = 4096
TYPING_EVERY_S = 4.5  # Telegram shows "typing…" for about 5 s
QUICK = frozenset({"list", "apply", "cancel", "undo", "help"})


class Refusal(Exception):
    """A /savenow the Telegram layer itself turns down (busy topic, full queue, cooldown)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def command_name(text: str | None) -> str | None:
    """``/savenow@Bot args`` → ``savenow``; None when ``text`` is not a command."""
    if not text or not text.startswith("/"):
        return None
    head = text.split(maxsplit=1)[0][1:]
    return head.split("@", 1)[0].lower() or None


def display_name(user: User | None) -> str | None:
    if user is None:
        return None
    return f"{user.full_name} (@{user.username})" if user.username else user.full_name


class SeenUpdates:
    """A bounded memory of handled update ids: a re-delivered update is ignored."""

    def __init__(self, size: int = SEEN_UPDATES) -> None:
        self._order: deque[tuple[str, int]] = deque()
        self._seen: set[tuple[str, int]] = set()
        self._size = size

    def first_time(self, kind: str, update_id: int) -> bool:
        key = (kind, update_id)
        if key in self._seen:
            return False
        self._seen.add(key)
        self._order.append(key)
        if len(self._order) > self._size:
            self._seen.discard(self._order.popleft())
        return True


class SaveNowHandlers:
    """The callbacks ``register`` adds to an Application, with the state they share."""

    def __init__(
        self,
        settings: Settings,
        *,
        service: SaveNowApi,
        recorder: Any,
        clock: Clock | None = None,
        service_workers: int = 64,
        max_pending: int | None = None,
    ) -> None:
        self.settings = settings
        self.service = service
        self.recorder = recorder
        self.clock = clock or Clock()
        self.access = AccessPolicy.from_settings(settings)
        # Daemon threads: an extraction still running never holds up the process's exit.
        self._executor = DaemonExecutor(max_workers=service_workers, thread_name_prefix="savenow")
        self._max_pending = max_pending if max_pending is not None else 2 * service_workers
        self._chat_locks: dict[str, asyncio.Lock] = {}
        self._press_locks: dict[str, asyncio.Lock] = {}
        self._keyboards: dict[str, KeyboardRef] = {}
        self._previews: OrderedDict[tuple[int, int], str] = OrderedDict()  # (chat, message) → HTML
        self._extracting: set[str] = set()  # scope keys with an extraction running
        self._last_extraction: dict[int, datetime] = {}  # user id → when their last one started
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False
        self._seen = SeenUpdates()
        self.features: FeatureHandlers | None = None  # /recall, /compact, /memory (set by register)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
        if self.features is not None:
            self.features.close()

    # -- the surface the feature handlers (features.py) share -------------------------------------

    @property
    def stopping(self) -> bool:
        """The bot is shutting down: take no new work."""
        return self._stopping

    def first_time(self, kind: str, update_id: int) -> bool:
        """True the first time this update is seen for ``kind`` (Telegram may deliver one twice)."""
        return self._seen.first_time(kind, update_id)

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Work the bot does on its own: tracked, so stopping the bot cancels it."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def track_keyboard(self, scope_key: str, ref: KeyboardRef) -> None:
        """The scope's live buttons are now on this message (a newer proposal drops the older first)."""
        self._keyboards[scope_key] = ref

    def untrack_keyboard(self, scope_key: str, message_id: int) -> None:
        """That message's buttons are going (pressed, expired): stop tracking them, if they are the live ones."""
        ref = self._keyboards.get(scope_key)
        if ref is not None and ref.message_id == message_id:
            del self._keyboards[scope_key]

    def stop_now(self) -> None:
        """Stop taking work and cancel what is running (the bot is shutting down)."""
        self._stopping = True
        for task in list(self._tasks):
            task.cancel()
        self.close()

    # -- access ---------------------------------------------------------------------------------

    def chat_allowed(self, place: Place, user: User | None = None) -> bool:
        """May the bot record this chat? (Only where a trusted user could use it.)"""
        return self.access.may_record(place.chat_id, place.chat_kind, user.id if user else None)

    def language(self, user: User | None) -> Lang:
        return i18n.pick_language(self.settings.telegram.language, user.language_code if user else None)

    def scope(self, place: Place, user: User, lang: Lang = "en") -> Scope:
        return Scope(
            chat_id=str(place.chat_id),
            thread_id=place.thread_id,
            user_id=str(user.id),
            chat_type=place.chat_kind,
            via="chat",
            lang=lang,
        )

    def session_key(self, place: Place) -> str:
        return telegram_session_key(
            self.settings.agent_id,
            chat_type=place.chat_kind,
            chat_id=place.chat_id,
            thread_id=place.thread_id if place.chat_kind == "group" else None,
        )

    # -- /savenow -------------------------------------------------------------------------------

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or self._stopping or not self._seen.first_time("message", update.update_id):
            return
        place = place_of(message)
        user = message.from_user
        if place is None or user is None:
            return
        lang = self.language(user)
        scope = self.scope(place, user, lang)
        try:
            self.access.require(scope)  # the service asks again; this spares a stranger any work
        except SaveNowError as error:
            log.info("refused /savenow from user %s in chat %s", user.id, place.chat_id)
            await self.send_text(context, place, escape(error.message(lang)))
            return
        argument = " ".join(context.args or [])
        head = argument.split()[0].lower() if argument.split() else ""
        if command_name(message.text) == "help" or head == "help":
            await self.send_text(context, place, escape(i18n.text("help", lang)))
            return
        if head == "search" and self.features is not None:
            _head, _, query = argument.strip().partition(" ")
            await self.features.recall(context, place, scope, query)
            return
        await self.recordings_done(self.session_key(place))
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            if head in QUICK:
                outcome = await self.run_off_loop(self.service.run, scope, argument)
            else:
                outcome = await self._extract(context, place, user, scope, argument)
        except Refusal as refusal:
            await self.send_text(context, place, escape(refusal.message))
            return
        except SaveNowError as error:
            await self.send_text(context, place, escape(error.message(lang)))
            return
        except Exception:
            log.exception("/savenow %r failed in chat %s", argument, place.chat_id)
            await self.send_text(context, place, escape(i18n.text("internal_error", lang)))
            return
        finally:
            if task is not None:
                self._tasks.discard(task)
        # Under the topic's press lock: a press on this preview waits until its buttons are registered.
        async with self.scope_lock(place.scope_key):
            await self._send_outcome(context, place, outcome, lang)

    def scope_lock(self, scope_key: str) -> asyncio.Lock:
        return self._press_locks.setdefault(scope_key, asyncio.Lock())

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/help`` in the standalone bot: the usage, to anyone (it reads and writes nothing)."""
        message = update.message
        if message is None or not self._seen.first_time("message", update.update_id):
            return
        place = place_of(message)
        if place is not None:
            await self.send_text(context, place, escape(i18n.text("help", self.language(message.from_user))))

    async def _extract(
        self, context: ContextTypes.DEFAULT_TYPE, place: Place, user: User, scope: Scope, argument: str
    ) -> Outcome:
        """A command that reads a session: one per topic, bounded in all, a cooldown per user."""
        lang = scope.lang
        if place.scope_key in self._extracting:
            raise Refusal(i18n.text("topic_busy", lang))
        if len(self._extracting) >= self._max_pending:
            raise Refusal(i18n.text("queue_full", lang))
        wait = self._cooldown_left(user.id)
        if wait > 0:
            raise Refusal(i18n.text("cooldown", lang, seconds=math.ceil(wait)))
        self._extracting.add(place.scope_key)
        self._last_extraction[user.id] = self.clock.now()
        done = asyncio.Event()
        typing = asyncio.create_task(self._keep_typing(context, place, done))
        try:
            await self.drop_keyboard(context, place.scope_key)  # a newer preview: the older loses its buttons
            return await self.run_off_loop(self.service.run, scope, argument)
        finally:
            done.set()
            self._extracting.discard(place.scope_key)
            if not self._stopping:
                # A fast answer must not cancel the "typing…" already on its way (it would never show):
                # let the send in flight finish, bounded; the loop ends by itself once done is set.
                await asyncio.wait({typing}, timeout=TYPING_EVERY_S)
            typing.cancel()

    def _cooldown_left(self, user_id: int) -> float:
        cooldown = self.settings.telegram.cooldown_seconds
        last = self._last_extraction.get(user_id)
        if not cooldown or last is None:
            return 0.0
        return cooldown - (self.clock.now() - last).total_seconds()

    async def _keep_typing(
        self, context: ContextTypes.DEFAULT_TYPE, place: Place, done: asyncio.Event
    ) -> None:
        """Show "typing…" at once and keep it up until the answer is ready."""
        while not done.is_set():
            await self._api(
                context,
                context.bot.send_chat_action,
                chat_id=place.chat_id,
                action=ChatAction.TYPING,
                message_thread_id=place.send_thread_id,
            )
            try:
                await asyncio.wait_for(done.wait(), TYPING_EVERY_S)
            except TimeoutError:
                pass

    async def _send_outcome(
        self, context: ContextTypes.DEFAULT_TYPE, place: Place, outcome: object, lang: Lang
    ) -> None:
        if isinstance(outcome, PreviewResult):
            await self._send_preview(context, place, outcome, lang)
        elif isinstance(outcome, ApplyResult):
            status = apply_status(outcome, lang)
            if not outcome.markdown:  # a typed apply: the preview keeps its diff and says what was saved
                await self._settle_scope(context, place.scope_key, status)
            await self.send_text(context, place, escape(status))
        elif isinstance(outcome, CancelResult):
            status = i18n.text("cancelled" if outcome.cancelled else "nothing_to_cancel", lang)
            await self._settle_scope(context, place.scope_key, status)
            await self.send_text(context, place, escape(status))
        elif isinstance(outcome, ListResult):
            # With no session yet, this chat's own key (the one the recorder will use) is the one to copy.
            for chunk in chunk_html(render_list(outcome, lang, own_key=self.session_key(place))):
                await self.send_text(context, place, chunk)
        elif isinstance(outcome, UndoResult):
            path = f"memory/{outcome.memory_path.name}"
            text = i18n.text("undone", lang, path=path, lines=outcome.removed_lines)
            await self.send_text(context, place, escape(text))
        else:  # pragma: no cover - the service's Outcome union is closed
            log.error("unexpected outcome %r", outcome)

    async def _send_preview(
        self, context: ContextTypes.DEFAULT_TYPE, place: Place, result: PreviewResult, lang: Lang
    ) -> None:
        rendered = render_preview(
            result.markdown, shortened_note=f"<i>{escape(i18n.text('shortened', lang))}</i>"
        )
        if rendered.shortened and rendered.full_markdown is not None:
            document = InputFile(
                rendered.full_markdown.encode("utf-8"),
                filename=f"savenow-preview-{result.memory_path.stem}.md",
            )
            await self._api(
                context,
                context.bot.send_document,
                chat_id=place.chat_id,
                document=document,
                caption=i18n.text("full_preview_caption", lang),
                message_thread_id=place.send_thread_id,
            )
        keyboard = preview_keyboard(result.pending_id, lang) if result.pending_id else None
        last: Message | None = None
        for index, chunk in enumerate(rendered.chunks):
            is_last = index == len(rendered.chunks) - 1
            last = await self.send_text(context, place, chunk, keyboard if is_last else None)
        await self.drop_keyboard(context, place.scope_key)  # one that appeared while this one ran
        if result.pending_id and last is not None:
            self._keyboards[place.scope_key] = KeyboardRef(result.pending_id, place.chat_id, last.message_id)
            self.remember_preview(place.chat_id, last.message_id, rendered.chunks[-1])
            self.schedule_expiry(context, place.scope_key, result.pending_id, lang)

    def remember_preview(self, chat_id: int, message_id: int, html: str) -> None:
        """Keep a message's HTML, so a later status edit keeps what it showed."""
        self._previews[(chat_id, message_id)] = html
        while len(self._previews) > KNOWN_PREVIEWS:
            self._previews.popitem(last=False)

    def schedule_expiry(
        self,
        context: ContextTypes.DEFAULT_TYPE,
        scope_key: str,
        pending_id: str,
        lang: Lang,
        status: str = "expired_status",
    ) -> None:
        """When the TTL is over, the preview loses its buttons and says it expired (``bot.<status>``), unpressed."""
        jobs = context.job_queue  # None when the host application has no JobQueue
        if jobs is None:
            return
        jobs.run_once(
            self._expire,
            when=timedelta(minutes=self.settings.preview_ttl_minutes),
            data=(scope_key, pending_id, lang, status),
            name=f"savenow-expire:{scope_key}:{pending_id}",
        )

    async def _expire(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        job = context.job
        if job is None or self._stopping:
            return
        scope_key: str
        pending_id: str
        lang: Lang
        status: str
        scope_key, pending_id, lang, status = job.data  # type: ignore[misc]
        ref = self._keyboards.get(scope_key)
        if ref is None or ref.pending_id != pending_id:
            return  # applied, cancelled or replaced since
        ttl = self.settings.preview_ttl_minutes
        await self._settle_scope(context, scope_key, i18n.text(status, lang, ttl=ttl))

    # -- buttons --------------------------------------------------------------------------------

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None or self._stopping or not self._seen.first_time("callback", update.update_id):
            return
        lang = self.language(query.from_user)
        action, pending_id = parse_callback_data(query.data or "")
        place = place_of(query.message)
        if place is None or action is None:
            await self.answer(query, i18n.text("gone", lang))
            return
        scope = self.scope(place, query.from_user, lang)
        try:
            self.access.require(scope)
        except SaveNowError as error:
            await self.answer(query, error.message(lang))
            return
        # Presses in one topic run one at a time, each to its end (message edited, press answered):
        # a double tap's second press then finds the preview applied and says so.
        async with self.scope_lock(place.scope_key):
            await self._press(query, context, place, scope, action, pending_id)

    async def _press(
        self,
        query: CallbackQuery,
        context: ContextTypes.DEFAULT_TYPE,
        place: Place,
        scope: Scope,
        action: str,
        pending_id: str | None,
    ) -> None:
        lang = scope.lang
        method: Callable[[Scope, str | None], ApplyResult | CancelResult] = (
            self.service.apply if action == CALLBACK_APPLY else self.service.cancel
        )
        try:
            outcome = await self.run_off_loop(method, scope, pending_id)
        except AccessDeniedError as error:
            # Someone else's preview: a short refusal, and the preview stays as it is.
            await self.answer(query, error.message(lang))
            return
        except PendingExpiredError:
            await self.settle(query, context, place, i18n.text("expired", lang))
            return
        except AlreadyAppliedError:
            await self.settle(query, context, place, i18n.text("already_applied", lang), edit=False)
            return
        except NoPendingError as error:
            await self.settle(query, context, place, error.message(lang))
            return
        except SaveNowError as error:
            await self.answer(query, error.message(lang))
            return
        except Exception:
            log.exception("button %s failed in chat %s", action, place.chat_id)
            await self.answer(query, i18n.text("internal_error", lang))
            return
        if isinstance(outcome, ApplyResult):
            # A second tap keeps the message saying what the first one saved.
            first = not outcome.already_applied
            status = apply_status(outcome, lang)
            await self.settle(
                query, context, place, status, edit=first, consumed=first, toast=status.split("\n")[0]
            )
        else:
            summary = i18n.text("cancelled" if outcome.cancelled else "nothing_to_cancel", lang)
            await self.settle(query, context, place, summary, consumed=outcome.cancelled)

    async def settle(
        self,
        query: CallbackQuery,
        context: ContextTypes.DEFAULT_TYPE,
        place: Place,
        status: str,
        *,
        edit: bool = True,
        consumed: bool = False,
        toast: str | None = None,
    ) -> None:
        """Take the pressed message's buttons away, then answer the press.

        ``edit`` adds ``status`` under the preview's diff; ``consumed`` (the pending
        preview was applied or cancelled) also settles the scope's current preview,
        which differs from the pressed message when the press came from the skill's
        own ``/savenow apply`` button. The toast comes last, so whoever sees it sees
        the finished result.
        """
        message = query.message
        if isinstance(message, Message):
            ref = self._keyboards.get(place.scope_key)
            if ref is not None and ref.message_id == message.message_id and ref.chat_id == message.chat_id:
                del self._keyboards[place.scope_key]
            if edit:
                await self._edit_with_status(context, message.chat_id, message.message_id, status)
            elif message.reply_markup is not None:
                await self._api(context, message.edit_reply_markup, reply_markup=None)
        if consumed:
            await self._settle_scope(context, place.scope_key, status)
        await self.answer(query, toast or status)

    async def _settle_scope(self, context: ContextTypes.DEFAULT_TYPE, scope_key: str, status: str) -> None:
        """The scope's live preview keeps its diff, loses its buttons and says what happened."""
        ref = self._keyboards.pop(scope_key, None)
        if ref is not None:
            await self._edit_with_status(context, ref.chat_id, ref.message_id, status)

    async def _edit_with_status(
        self, context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int, status: str
    ) -> None:
        """Edit a preview message to its diff plus a status line, without buttons."""
        html = self._previews.get((chat_id, message_id))
        line = escape(status)
        text = f"{html}\n\n{line}" if html is not None else line
        if telegram_length(text) > TELEGRAM_TEXT_LIMIT:
            text = line  # a full chunk has no room: the status replaces it, the earlier chunks stay
        await self._api(
            context,
            context.bot.edit_message_text,
            text,
            chat_id=chat_id,
            message_id=message_id,
            parse_mode=ParseMode.HTML,
            link_preview_options=LinkPreviewOptions(is_disabled=True),
            reply_markup=None,
        )

    async def answer(self, query: CallbackQuery, text: str) -> None:
        """Always answer a press (the client shows a spinner until then), with a short toast."""
        short = text if len(text) <= CALLBACK_ANSWER_LIMIT else text[: CALLBACK_ANSWER_LIMIT - 1] + "…"
        try:
            await query.answer(short)
        except TelegramError as error:
            log.warning("answerCallbackQuery failed: %s", error)

    # -- recorder -------------------------------------------------------------------------------

    async def on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or not self._seen.first_time("record", update.update_id):
            return
        place = place_of(message)
        text = message.text or message.caption
        if place is None or not text or not self.chat_allowed(place, message.from_user):
            return
        command = command_name(text)
        key = self.session_key(place)
        if command in OWN_COMMANDS:
            return  # savenow's own commands are not part of the conversation
        if command in NEW_SESSION_COMMANDS:
            await self._in_chat_order(key, self.recorder.start_new_session, key)
            return
        await self._record(message, place, text, role="user")

    async def on_edit(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.edited_message
        if message is None:
            return
        place = place_of(message)
        text = message.text or message.caption
        if (
            place is None
            or not text
            or not self.chat_allowed(place, message.from_user)
            or command_name(text) in OWN_COMMANDS
        ):
            return
        key = self.session_key(place)
        await self._in_chat_order(
            key, functools.partial(self.recorder.record_edit, key, message_id=message.message_id, text=text)
        )

    async def record_outgoing(self, message: Message) -> None:
        """Record a message the host bot sent (bots never receive their own messages)."""
        place = place_of(message)
        text = message.text or message.caption
        if place is None or not text or not self.chat_allowed(place):
            return
        await self._record(message, place, text, role="assistant")

    async def _record(self, message: Message, place: Place, text: str, *, role: str) -> None:
        key = self.session_key(place)
        await self._in_chat_order(
            key,
            functools.partial(
                self.recorder.record,
                key,
                role=role,
                text=text,
                message_id=message.message_id,
                chat_id=str(place.chat_id),
                chat_type=place.chat_kind,
                thread_id=place.thread_id,
                sender=display_name(message.from_user),
            ),
        )
        if self.features is not None:
            self.features.after_record(place, key, message.from_user, role=role)

    async def _in_chat_order(self, key: str, fn: Callable[..., object], *args: object) -> None:
        """Run a recorder write off the loop, in arrival order for its session (asyncio locks are FIFO)."""
        lock = self._chat_locks.setdefault(key, asyncio.Lock())
        async with lock:
            try:
                await asyncio.to_thread(fn, *args)
            except Exception:
                log.exception("recording into %s failed", key)

    async def recordings_done(self, key: str) -> None:
        """Wait until the messages that arrived before this command are recorded."""
        lock = self._chat_locks.get(key)
        if lock is not None:
            async with lock:
                pass

    # -- sending --------------------------------------------------------------------------------

    async def run_off_loop(self, fn: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args))

    async def send_text(
        self,
        context: ContextTypes.DEFAULT_TYPE,
        place: Place,
        html_text: str,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> Message | None:
        # Explicit parse mode and no quoting: a host bot's Defaults may differ.
        return await self._api(
            context,
            context.bot.send_message,
            chat_id=place.chat_id,
            text=html_text,
            parse_mode=ParseMode.HTML,
            message_thread_id=place.send_thread_id,
            link_preview_options=LinkPreviewOptions(is_disabled=True),
            reply_markup=keyboard,
        )

    async def drop_keyboard(self, context: ContextTypes.DEFAULT_TYPE, scope_key: str) -> None:
        """Take the buttons off the scope's live preview (its diff stays as it is)."""
        ref = self._keyboards.pop(scope_key, None)
        if ref is not None:
            await self._remove_keyboard(context, ref)

    async def _remove_keyboard(self, context: ContextTypes.DEFAULT_TYPE, ref: KeyboardRef) -> None:
        await self._api(
            context,
            context.bot.edit_message_reply_markup,
            chat_id=ref.chat_id,
            message_id=ref.message_id,
            reply_markup=None,
        )

    async def _api(
        self, context: ContextTypes.DEFAULT_TYPE, call: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any
    ) -> T | None:
        """One Bot API call: 429s retried after the server's retry_after, other errors logged, never raised.

        With an ``AIORateLimiter`` (the standalone bot) PTB retries 429s itself; a
        host application without one gets these retries instead.
        """
        own_retries = MAX_OWN_RETRIES if getattr(context.bot, "rate_limiter", None) is None else 0
        for attempt in range(own_retries + 1):
            try:
                return await call(*args, **kwargs)
            except RetryAfter as error:
                if attempt == own_retries:
                    log.warning("Telegram rate limit: giving up on %s: %s", _name(call), error)
                    return None
                await asyncio.sleep(_retry_seconds(error) + 0.1)
            except TelegramError as error:
                log.warning("Telegram %s failed: %s", _name(call), error)
                return None
        return None


# -- rendering helpers --------------------------------------------------------------------------


def preview_keyboard(pending_id: str, lang: Lang) -> InlineKeyboardMarkup:
    """One row: ✅ Apply, ❌ Cancel (Cancel on the right), bound to this preview by its id."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    i18n.text("button_apply", lang),
                    callback_data=f"{CALLBACK_PREFIX}:{CALLBACK_APPLY}:{pending_id}",
                ),
                InlineKeyboardButton(
                    i18n.text("button_cancel", lang),
                    callback_data=f"{CALLBACK_PREFIX}:{CALLBACK_CANCEL}:{pending_id}",
                ),
            ]
        ]
    )


def parse_callback_data(data: str) -> tuple[str | None, str | None]:
    """``sn:a:<id>`` → ("a", id); ``/savenow apply`` (the skill's buttons) → ("a", None)."""
    parts = data.split(":")
    if len(parts) == 3 and parts[0] == CALLBACK_PREFIX and parts[1] in (CALLBACK_APPLY, CALLBACK_CANCEL):
        return parts[1], parts[2] or None
    words = data.strip().lower().split()
    if len(words) == 2 and command_name(words[0]) == "savenow":
        return {"apply": CALLBACK_APPLY, "cancel": CALLBACK_CANCEL}.get(words[1]), None
    return None, None


def apply_status(result: ApplyResult, lang: Lang) -> str:
    """What a write did: the counts on the first line (the toast), then the titles it saved."""
    path = f"memory/{result.memory_path.name}"
    if result.already_applied:
        return i18n.text("already_applied", lang)
    if not result.written:
        return i18n.text("nothing_written", lang, path=path)
    summary = i18n.text(
        "saved",
        lang,
        path=path,
        added=len(result.added_titles),
        merged=len(result.merged_titles),
        skipped=len(result.skipped_titles),
    )
    summary += i18n.text("new_file", lang) if result.created_file else ""
    titles = [*result.added_titles, *result.merged_titles]
    if titles:
        summary += "\n" + i18n.text("saved_titles", lang, titles=", ".join(f"“{t}”" for t in titles))
    return summary


def render_list(result: ListResult, lang: Lang, *, own_key: str | None = None) -> str:
    """The chat's sessions with keys to copy; with none, this chat's own key (never a dead end)."""
    if not result.sessions:
        key = own_key or "agent:main:telegram:group:<chatId>"
        line = escape(i18n.text("list_empty", lang, key="\0"))
        return line.replace("\0", f"<code>{escape(key)}</code>")
    lines = [f"<b>{escape(i18n.text('list_header', lang))}</b>"]
    for session in result.sessions:
        updated = (
            session.updated_at.strftime("%Y-%m-%d %H:%M")
            if session.updated_at
            else i18n.text("unknown_time", lang)
        )
        marker = "▶" if session.key == result.resolved_key else "•"
        line = i18n.text(
            "list_line",
            lang,
            marker=marker,
            key="\0",
            messages=session.messages,
            updated=updated,
            source=session.source,
        )
        lines.append(escape(line).replace("\0", f"<code>{escape(session.key)}</code>"))
    lines.append(escape(i18n.text("list_footer", lang)))
    return "\n".join(lines)


def _retry_seconds(error: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22 warns while retry_after moves from int to timedelta
        warnings.simplefilter("ignore")
        value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _name(call: Callable[..., object]) -> str:
    return getattr(call, "__name__", repr(call))
