"""Which session a /savenow refers to (DESIGN §3), across OpenClaw's store and the recorder's.

Stores are consulted in priority order: a key present in the first store (OpenClaw's
``sessions_dir``, which holds both sides of the chat) wins over the same key in the
recorder's store, which only serves the keys OpenClaw lacks (§5.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..errors import SessionNotFoundError, SessionResolutionError
from ..messages import Text
from ..vocabulary import ChatType
from .keys import (
    is_excluded_key,
    main_session_key,
    telegram_session_key,
    validate_session_key,
)
from .openclaw import OpenClawFileStore
from .store import ChatIndex, SessionInfo, SessionStore, Transcript, UserMessageProbe

if TYPE_CHECKING:
    from ..config import Settings

ChatTypeArg = ChatType | None

GENERAL_TOPIC = "1"  # OpenClaw's thread id for a forum's General topic


class SessionCatalog:
    """Every known session, from several stores in priority order."""

    def __init__(self, stores: Sequence[SessionStore], *, agent_id: str = "main") -> None:
        self.stores = list(stores)
        self.agent_id = agent_id

    @classmethod
    def from_settings(cls, settings: Settings) -> SessionCatalog:
        from .era import openclaw_stores  # the file or SQLite era, by what the install holds

        stores: list[SessionStore] = openclaw_stores(settings)
        stores.append(OpenClawFileStore(settings.effective_recorder_dir, source="recorder"))
        return cls(stores, agent_id=settings.agent_id)

    # -- lookups --

    def list_sessions(self) -> list[SessionInfo]:
        """All sessions, each key once (first store wins), newest first."""
        merged: dict[str, SessionInfo] = {}
        for store in self.stores:
            for info in store.list_sessions():
                merged.setdefault(info.key, info)
        return _newest_first(merged.values())

    def get(self, key: str) -> SessionInfo | None:
        for store in self.stores:
            info = store.get(key)
            if info is not None:
                return info
        return None

    def read_messages(self, info: SessionInfo, limit: int) -> Transcript:
        """Read through the store the session came from."""
        return self._store_of(info).read_messages(info, limit)

    def has_user_message(self, info: SessionInfo) -> bool:
        if info.has_user_message is not None:
            return info.has_user_message
        store = self._store_of(info)
        if isinstance(store, UserMessageProbe):
            return store.probe_user_message(info)
        transcript = store.read_messages(info, 200)
        return any(message.role == "user" for message in transcript.messages)

    # -- §3 --

    def candidates(self, chat_id: str | None, thread_id: str | None) -> list[SessionInfo]:
        """Sessions of this chat (and topic, when given) /savenow may pick, newest first.

        Without a thread id this lists every eligible session of the chat, which is
        what ``/savenow list`` shows in a group message outside a topic.
        """
        chat = _text(chat_id)
        thread = _text(thread_id)
        if chat is None and thread is None:
            return []
        pool = self.list_sessions() if chat is None else self._sessions_in_chat(chat)
        matching = [
            info
            for info in pool
            if not is_excluded_key(info.key)
            and (chat is None or info.chat_id == chat)
            and (thread is None or thread in info.thread_ids)
        ]
        return [info for info in matching if self.has_user_message(info)]

    def _sessions_in_chat(self, chat: str) -> list[SessionInfo]:
        """A chat's sessions across stores (first store wins a key), newest first; indexed when the store can."""
        merged: dict[str, SessionInfo] = {}
        for position, store in enumerate(self.stores):
            found = store.sessions_in_chat(chat) if isinstance(store, ChatIndex) else store.list_sessions()
            for info in found:
                if info.key in merged or any(earlier.get(info.key) for earlier in self.stores[:position]):
                    continue
                merged[info.key] = info
        return _newest_first(merged.values())

    def resolve(
        self,
        *,
        chat_id: str | int | None,
        thread_id: str | int | None,
        chat_type: ChatTypeArg = None,
        explicit_key: str | None = None,
        target_key: str | None = None,
        allow_main: bool = True,
    ) -> SessionInfo:
        """The session a /savenow means, exactly as DESIGN §3; refusals carry a key to copy.

        ``allow_main=False`` (a chat user who is not an admin) never falls back to the
        agent's main session: that one is the owner's.
        """
        if target_key:
            return self._by_key(target_key)
        if explicit_key:
            return self._by_key(explicit_key)
        chat = _text(chat_id)
        thread = _text(thread_id)
        kind = chat_type or _infer_chat_type(chat)
        if kind == "group" and chat is not None:
            return self._group(chat, thread)
        return self._direct(chat, thread, allow_main=allow_main)

    def _group(self, chat: str, thread: str | None) -> SessionInfo:
        """A topic's session; a group without topics (or a forum's General topic) → the group's own."""
        if thread is not None:
            found = self.candidates(chat, thread)
            if found:
                return found[0]
        if thread in (None, GENERAL_TOPIC):
            plain = self.group_sessions(chat)
            if plain:
                return plain[0]
        if thread is None:
            reason = Text("session.none_for_group", chat_id=chat)
        else:
            reason = Text("session.none_for_topic", chat_id=chat, thread_id=thread)
        own = telegram_session_key(self.agent_id, chat_type="group", chat_id=chat, thread_id=thread)
        raise SessionResolutionError(self._refusal(reason, chat, own))

    def group_sessions(self, chat: str) -> list[SessionInfo]:
        """The chat's sessions without a topic (``…:telegram:group:<chatId>``), newest first."""
        return [
            info
            for info in self._sessions_in_chat(chat)
            if not is_excluded_key(info.key)
            and info.chat_id == chat
            and info.key.endswith(f":group:{chat}")
            and self.has_user_message(info)
        ]

    def _refusal(self, reason: Text, chat: str | None, own_key: str) -> Text:
        """Why nothing was found, and how to pick a session, with a key from this chat to copy."""
        known = [
            info.key
            for info in (self._sessions_in_chat(chat) if chat is not None else [])
            if not is_excluded_key(info.key) and info.chat_id == chat
        ]
        example = known[0] if known else own_key
        return Text("session.refusal", reason=reason, how=Text("session.how_to_pick", example=example))

    def _by_key(self, key: str) -> SessionInfo:
        valid = validate_session_key(key)
        info = self.get(valid)
        if info is None:
            raise SessionNotFoundError(Text("session.not_found", key=valid))
        return info

    def _direct(self, chat: str | None, thread: str | None, *, allow_main: bool = True) -> SessionInfo:
        """A direct chat: its topic when it has one, else its direct session, else (admins only) main."""
        if chat is not None and thread is not None:
            found = self.candidates(chat, thread)
            if found:
                return found[0]
        if chat is not None:
            direct = [
                info
                for info in self._sessions_in_chat(chat)
                if not is_excluded_key(info.key)
                and info.chat_id == chat
                and (info.chat_type in (None, "direct"))
                and ":direct:" in info.key
                and self.has_user_message(info)
            ]
            own = [info for info in direct if info.key.startswith(f"agent:{self.agent_id}:")]
            if own or direct:
                return (own or direct)[0]
        if allow_main:
            main = self.get(main_session_key(self.agent_id))
            if main is not None and self.has_user_message(main):
                return main
        where = Text("session.chat_n", chat_id=chat) if chat is not None else Text("session.this_chat")
        own_key = (
            telegram_session_key(self.agent_id, chat_type="direct", chat_id=chat)
            if chat is not None
            else main_session_key(self.agent_id)
        )
        raise SessionResolutionError(self._refusal(Text("session.none_for_chat", where=where), chat, own_key))

    def _store_of(self, info: SessionInfo) -> SessionStore:
        for store in self.stores:
            if store.get(info.key) == info:
                return store
        for store in self.stores:
            if store.source == info.source:
                return store
        return self.stores[0]


def _newest_first(sessions: Iterable[SessionInfo]) -> list[SessionInfo]:
    return sorted(sessions, key=lambda info: info.updated_at_ms or 0, reverse=True)


def _text(value: str | int | None) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _infer_chat_type(chat: str | None) -> str:
    """Telegram group and channel ids are negative; user (direct) chat ids are positive."""
    return "group" if chat is not None and chat.startswith("-") else "direct"
