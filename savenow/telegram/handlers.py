"""The Telegram handlers: parse an update, call the service off the event loop, render the outcome.

No behaviour lives here beyond Telegram's own concerns (who may press what,
which topic to answer in, how a preview is cut into messages); the routing
table and every memory rule belong to :class:`savenow.service.SaveNowService`.

Nothing here blocks the event loop: service calls run on a dedicated thread
pool (a slow extractor in one topic never delays another chat, nor the host
bot's own ``asyncio.to_thread`` work), the recorder's file appends run through
``asyncio.to_thread``, and every handler is registered with ``block=False``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import warnings
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    LinkPreviewOptions,
    MaybeInaccessibleMessage,
    Message,
    Update,
    User,
)
from telegram.constants import ChatType, ParseMode
from telegram.error import RetryAfter, TelegramError
from telegram.ext import ContextTypes

from ..config import Settings
from ..errors import (
    AccessDeniedError,
    AlreadyAppliedError,
    NoPendingError,
    PendingExpiredError,
    SaveNowError,
)
from ..service import ApplyResult, CancelResult, ListResult, PreviewResult, Scope
from ..sessions.keys import telegram_session_key
from ..vocabulary import ChatType as ChatKind
from ..vocabulary import scope_key
from . import i18n
from .i18n import Lang
from .render import chunk_html, escape, markdown_to_html, render_preview

log = logging.getLogger("savenow.telegram")

T = TypeVar("T")

CALLBACK_PREFIX = "sn"
CALLBACK_APPLY = "a"
CALLBACK_CANCEL = "c"
# Our own short data, and the literal commands the OpenClaw skill puts on its buttons.
CALLBACK_PATTERN = r"^(sn:[ac]:[A-Za-z0-9_-]{1,16}|/savenow (apply|cancel))$"
GENERAL_TOPIC_ID = "1"  # OpenClaw's thread id for a forum's General topic; Telegram wants none on send
NEW_SESSION_COMMANDS = frozenset({"new", "reset"})
MAX_OWN_RETRIES = 3  # RetryAfter retries when the host application has no rate limiter
CALLBACK_ANSWER_LIMIT = 190  # Telegram allows 200 characters in a callback answer
SEEN_UPDATES = 2048


@dataclass(frozen=True)
class Place:
    """Where a message is: the chat, the savenow scope thread, and the thread id to send with."""

    chat_id: int
    chat_kind: ChatKind
    thread_id: str | None  # the scope's thread ("1" for a forum's General topic)
    send_thread_id: int | None  # None for General and for chats without topics

    @property
    def scope_key(self) -> str:
        return scope_key(self.chat_id, self.thread_id)


@dataclass
class KeyboardRef:
    """The message carrying a pending preview's buttons, so they can be removed later."""

    pending_id: str
    chat_id: int
    message_id: int


def place_of(message: MaybeInaccessibleMessage | None) -> Place | None:
    """The place of a message, or None for channels and messages the bot can no longer read."""
    if not isinstance(message, Message):
        return None
    chat = message.chat
    if chat.type == ChatType.PRIVATE:
        kind: ChatKind = "direct"
    elif chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
        kind = "group"
    else:
        return None
    if message.is_topic_message and message.message_thread_id:
        return Place(chat.id, kind, str(message.message_thread_id), message.message_thread_id)
    if chat.is_forum:
        return Place(chat.id, kind, GENERAL_TOPIC_ID, None)
    # A reply thread in a plain group also carries message_thread_id; it is not a topic.
    return Place(chat.id, kind, None, None)


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
        service: Any,
        recorder: Any,
        service_workers: int = 64,
    ) -> None:
        self.settings = settings
        self.service = service
        self.recorder = recorder
        # A dedicated pool: up to `service_workers` extractions run at once without
        # starving the default executor (the recorder's appends, the host bot's work).
        self._executor = ThreadPoolExecutor(max_workers=service_workers, thread_name_prefix="savenow")
        self._chat_locks: dict[str, asyncio.Lock] = {}
        self._keyboards: dict[str, KeyboardRef] = {}
        self._in_flight: set[tuple[str, str, str]] = set()
        self._seen = SeenUpdates()

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- access ---------------------------------------------------------------------------------

    def chat_allowed(self, place: Place) -> bool:
        telegram = self.settings.telegram
        if telegram.allowed_chat_ids and place.chat_id not in telegram.allowed_chat_ids:
            return False
        # A private chat's id is its user's id: a disallowed user's private chat is a disallowed chat.
        return place.chat_kind != "direct" or self.user_allowed(place.chat_id)

    def user_allowed(self, user_id: int) -> bool:
        telegram = self.settings.telegram
        if not telegram.allowed_user_ids:
            return True
        return user_id in telegram.allowed_user_ids or user_id in telegram.admin_user_ids

    def language(self, user: User | None) -> Lang:
        return i18n.pick_language(self.settings.telegram.language, user.language_code if user else None)

    def scope(self, place: Place, user: User) -> Scope:
        return Scope(
            chat_id=str(place.chat_id),
            thread_id=place.thread_id,
            user_id=str(user.id),
            chat_type=place.chat_kind,
            is_admin=user.id in self.settings.telegram.admin_user_ids,
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
        if message is None or not self._seen.first_time("message", update.update_id):
            return
        place = place_of(message)
        user = message.from_user
        if place is None or user is None:
            return
        lang = self.language(user)
        if not (self.chat_allowed(place) and self.user_allowed(user.id)):
            log.info("refused /savenow from user %s in chat %s", user.id, place.chat_id)
            await self._send_text(context, place, escape(i18n.text("not_allowed", lang)))
            return
        argument = " ".join(context.args or [])
        scope = self.scope(place, user)
        await self._recordings_done(self.session_key(place))
        try:
            outcome = await self._run(self.service.run, scope, argument)
        except SaveNowError as error:
            await self._send_text(context, place, escape(error.message(lang)))
            return
        except Exception:
            log.exception("/savenow %r failed in chat %s", argument, place.chat_id)
            await self._send_text(context, place, escape(i18n.text("internal_error", lang)))
            return
        await self._send_outcome(context, place, outcome, lang)

    async def _send_outcome(
        self, context: ContextTypes.DEFAULT_TYPE, place: Place, outcome: object, lang: Lang
    ) -> None:
        if isinstance(outcome, PreviewResult):
            await self._send_preview(context, place, outcome, lang)
        elif isinstance(outcome, ApplyResult):
            if outcome.markdown:  # auto: what it acted on, then what it wrote
                for chunk in chunk_html(markdown_to_html(outcome.markdown)):
                    await self._send_text(context, place, chunk)
            else:  # a typed apply: the preview's buttons have done their job
                await self._drop_keyboard(context, place.scope_key)
            await self._send_text(context, place, escape(apply_summary(outcome, lang)))
        elif isinstance(outcome, CancelResult):
            key = "cancelled" if outcome.cancelled else "nothing_to_cancel"
            await self._drop_keyboard(context, place.scope_key)
            await self._send_text(context, place, escape(i18n.text(key, lang)))
        elif isinstance(outcome, ListResult):
            for chunk in chunk_html(render_list(outcome, lang)):
                await self._send_text(context, place, chunk)
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
            last = await self._send_text(context, place, chunk, keyboard if is_last else None)
        previous = self._keyboards.pop(place.scope_key, None)
        if previous is not None:  # a newer preview replaces the older one: its buttons go
            await self._remove_keyboard(context, previous)
        if result.pending_id and last is not None:
            self._keyboards[place.scope_key] = KeyboardRef(result.pending_id, place.chat_id, last.message_id)

    # -- buttons --------------------------------------------------------------------------------

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None or not self._seen.first_time("callback", update.update_id):
            return
        lang = self.language(query.from_user)
        action, pending_id = parse_callback_data(query.data or "")
        place = place_of(query.message)
        if place is None or action is None:
            await self._answer(query, i18n.text("gone", lang))
            return
        if not (self.chat_allowed(place) and self.user_allowed(query.from_user.id)):
            await self._answer(query, i18n.text("not_allowed", lang))
            return
        flight = (place.scope_key, action, pending_id or "")
        if flight in self._in_flight:  # a double tap while the first is still being applied
            await self._answer(query, i18n.text("busy", lang))
            return
        self._in_flight.add(flight)
        try:
            await self._press(query, context, place, action, pending_id, lang)
        finally:
            self._in_flight.discard(flight)

    async def _press(
        self,
        query: CallbackQuery,
        context: ContextTypes.DEFAULT_TYPE,
        place: Place,
        action: str,
        pending_id: str | None,
        lang: Lang,
    ) -> None:
        scope = self.scope(place, query.from_user)
        method = self.service.apply if action == CALLBACK_APPLY else self.service.cancel
        try:
            outcome = await self._run(method, scope, pending_id)
        except AccessDeniedError:
            # Someone else's preview: a short refusal, and the preview stays as it is.
            await self._answer(query, i18n.text("not_your_preview", lang))
            return
        except PendingExpiredError:
            await self._settle(query, context, place, i18n.text("expired", lang))
            return
        except AlreadyAppliedError:
            await self._settle(query, context, place, i18n.text("already_applied", lang), edit=False)
            return
        except NoPendingError as error:
            await self._settle(query, context, place, error.message(lang))
            return
        except SaveNowError as error:
            await self._answer(query, error.message(lang))
            return
        except Exception:
            log.exception("button %s failed in chat %s", action, place.chat_id)
            await self._answer(query, i18n.text("internal_error", lang))
            return
        if isinstance(outcome, ApplyResult):
            # A second tap keeps the message saying what the first one saved.
            first = not outcome.already_applied
            await self._settle(
                query, context, place, apply_summary(outcome, lang), edit=first, consumed=first
            )
        else:
            summary = i18n.text("cancelled" if outcome.cancelled else "nothing_to_cancel", lang)
            await self._settle(query, context, place, summary, consumed=outcome.cancelled)

    async def _settle(
        self,
        query: CallbackQuery,
        context: ContextTypes.DEFAULT_TYPE,
        place: Place,
        summary: str,
        *,
        edit: bool = True,
        consumed: bool = False,
    ) -> None:
        """Answer the press and take the pressed message's buttons away.

        ``edit`` turns the message into ``summary``; ``consumed`` (the pending
        preview was applied or cancelled) also removes the buttons of the scope's
        current preview, which differs from the pressed message when the press
        came from the skill's own ``/savenow apply`` button.
        """
        await self._answer(query, summary)
        message = query.message
        if isinstance(message, Message):
            if edit:
                await self._api(
                    context,
                    message.edit_text,
                    escape(summary),
                    parse_mode=ParseMode.HTML,
                    link_preview_options=LinkPreviewOptions(is_disabled=True),
                    reply_markup=None,
                )
            elif message.reply_markup is not None:
                await self._api(context, message.edit_reply_markup, reply_markup=None)
            ref = self._keyboards.get(place.scope_key)
            if ref is not None and ref.message_id == message.message_id and ref.chat_id == message.chat_id:
                del self._keyboards[place.scope_key]
        if consumed:
            await self._drop_keyboard(context, place.scope_key)

    async def _answer(self, query: CallbackQuery, text: str) -> None:
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
        if place is None or not text or not self.chat_allowed(place):
            return
        command = command_name(text)
        key = self.session_key(place)
        if command == "savenow":
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
        if place is None or not text or not self.chat_allowed(place) or command_name(text) == "savenow":
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

    async def _in_chat_order(self, key: str, fn: Callable[..., object], *args: object) -> None:
        """Run a recorder write off the loop, in arrival order for its session (asyncio locks are FIFO)."""
        lock = self._chat_locks.setdefault(key, asyncio.Lock())
        async with lock:
            try:
                await asyncio.to_thread(fn, *args)
            except Exception:
                log.exception("recording into %s failed", key)

    async def _recordings_done(self, key: str) -> None:
        """Wait until the messages that arrived before this command are recorded."""
        lock = self._chat_locks.get(key)
        if lock is not None:
            async with lock:
                pass

    # -- sending --------------------------------------------------------------------------------

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args))

    async def _send_text(
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

    async def _drop_keyboard(self, context: ContextTypes.DEFAULT_TYPE, scope_key: str) -> None:
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


def apply_summary(result: ApplyResult, lang: Lang) -> str:
    path = f"memory/{result.memory_path.name}"
    if result.already_applied:
        return i18n.text("already_applied", lang)
    if not result.written:
        return i18n.text("nothing_written", lang, path=path)
    summary = i18n.text(
        "applied",
        lang,
        path=path,
        added=len(result.added_titles),
        merged=len(result.merged_titles),
        skipped=len(result.skipped_titles),
    )
    return summary + (i18n.text("applied_created", lang) if result.created_file else "")


def render_list(result: ListResult, lang: Lang) -> str:
    if not result.sessions:
        return escape(i18n.text("list_empty", lang))
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
