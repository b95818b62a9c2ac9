"""Where a Telegram message is (chat, scope thread, thread to send with), and which message carries
a pending preview's buttons: shared by the core handlers and the feature handlers."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import MaybeInaccessibleMessage, Message
from telegram.constants import ChatType

from ..sessions.resolve import GENERAL_TOPIC  # Telegram wants no thread id on send for it
from ..vocabulary import ChatType as ChatKind
from ..vocabulary import scope_key


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
        return Place(chat.id, kind, GENERAL_TOPIC, None)
    # A reply thread in a plain group also carries message_thread_id; it is not a topic.
    return Place(chat.id, kind, None, None)
