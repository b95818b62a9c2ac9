"""Which session a /savenow refers to (DESIGN §3), across OpenClaw's store and the recorder's.

Stores are consulted in priority order: a key present in the first store (OpenClaw's
``sessions_dir``, which holds both sides of the chat) wins over the same key in the
recorder's store, which only serves the keys OpenClaw lacks (§5.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import SessionNotFoundError, SessionResolutionError
from ..vocabulary import ChatType
from .keys import is_excluded_key, main_session_key, validate_session_key
from .openclaw import OpenClawFileStore
from .store import ChatIndex, SessionInfo, SessionStore, Transcript, UserMessageProbe

if TYPE_CHECKING:
    from ..config import Settings

ChatTypeArg = ChatType | None

_HOW_TO_PICK_EN = (
    "Run /savenow list to see this chat's sessions (key, last update, topic), "
    "then /savenow <sessionKey> to preview one, e.g. /savenow agent:main:telegram:group:-100123:topic:42."
)
_HOW_TO_PICK_ZH = (
    "发送 /savenow list 查看本聊天的会话（会话键、最近更新时间、话题），"
    "再用 /savenow <sessionKey> 预览其中一个，例如 /savenow agent:main:telegram:group:-100123:topic:42。"
)


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
    ) -> SessionInfo:
        """The session a /savenow means, exactly as DESIGN §3; refusals carry what to do next."""
        if target_key:
            return self._by_key(target_key)
        if explicit_key:
            return self._by_key(explicit_key)
        chat = _text(chat_id)
        thread = _text(thread_id)
        kind = chat_type or _infer_chat_type(chat)
        if kind == "group":
            if thread is None:
                raise SessionResolutionError(
                    "This group message is not in a forum topic, so there is no single conversation to save. "
                    + _HOW_TO_PICK_EN,
                    "这条群消息不在论坛话题里，无法确定要保存哪段对话。" + _HOW_TO_PICK_ZH,
                )
            found = self.candidates(chat, thread)
            if found:
                return found[0]
            raise SessionResolutionError(
                f"No session with a user message was found for this topic (chat {chat}, thread {thread}). "
                + _HOW_TO_PICK_EN,
                f"没有找到这个话题（聊天 {chat}，话题 {thread}）中含有用户消息的会话。" + _HOW_TO_PICK_ZH,
            )
        return self._direct(chat, thread)

    def _by_key(self, key: str) -> SessionInfo:
        valid = validate_session_key(key)
        info = self.get(valid)
        if info is None:
            raise SessionNotFoundError(
                f"No session has the key {valid!r}. Run /savenow list to see the keys of this chat's sessions.",
                f"没有会话键为 {valid!r} 的会话。发送 /savenow list 查看本聊天的会话键。",
            )
        return info

    def _direct(self, chat: str | None, thread: str | None) -> SessionInfo:
        """A direct chat: its topic when it has one, else its direct session, else the agent's main session."""
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
        main = self.get(main_session_key(self.agent_id))
        if main is not None and self.has_user_message(main):
            return main
        where = f"chat {chat}" if chat is not None else "this chat"
        raise SessionResolutionError(
            f"No session with a user message was found for {where}. " + _HOW_TO_PICK_EN,
            f"没有找到{'聊天 ' + chat if chat is not None else '本聊天'}中含有用户消息的会话。"
            + _HOW_TO_PICK_ZH,
        )

    def _store_of(self, info: SessionInfo) -> SessionStore:
        for store in self.stores:
            if store.get(info.key) == info:
                return store
        for store in self.stores:
            if store.source == info.source:
                return store
        return self.stores[0]


def _newest_first(sessions: object) -> list[SessionInfo]:
    return sorted(sessions, key=lambda info: info.updated_at_ms or 0, reverse=True)  # type: ignore[arg-type]


def _text(value: str | int | None) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _infer_chat_type(chat: str | None) -> str:
    """Telegram group and channel ids are negative; user (direct) chat ids are positive."""
    return "group" if chat is not None and chat.startswith("-") else "direct"
