"""Who may do what (DESIGN §3.1): the one place every command asks.

    policy = AccessPolicy.from_settings(settings)
    policy.require(scope)                       # may this requester use savenow in this chat at all?
    policy.require_session_key(scope, key)      # may they read this session from here?
    policy.is_admin(scope)                      # admins may name any key and use the main session
    policy.may_record(chat_id, chat_type, user_id)  # may the bot record this chat's messages?

A :class:`Scope` is where a command was given and who gave it. ``via="local"``
is the machine's own operator (the command line, the skill's scripts, the demo):
trusted like an admin. ``via="chat"`` is a chat user (Telegram): nobody is
trusted until ``telegram.allowed_user_ids`` or ``telegram.admin_user_ids`` names
them, an allowed user reads only the sessions of the chat they write in, and
only an admin reads another chat's or the agent's main session. Every feature
that reads sessions or memory for a chat (preview, auto, list, apply, cancel,
undo, and search, compaction, objects next) calls :meth:`AccessPolicy.require`
and, for a session it is about to read, :meth:`AccessPolicy.require_session_key`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .errors import AccessDeniedError, NotTrustedError
from .messages import Lang, Text
from .sessions.keys import chat_id_from_key, chat_type_from_key, telegram_session_key
from .vocabulary import ChatType, scope_key

if TYPE_CHECKING:
    from .config import Settings

Via = Literal["local", "chat"]


@dataclass(frozen=True)
class Scope:
    """Where a command was given: (chat id, thread id) plus who asked (DESIGN §2)."""

    chat_id: str | None = None
    thread_id: str | None = None
    user_id: str | None = None
    chat_type: ChatType | None = None  # None: a chat id starting with "-" is a group, others direct
    target_session_key: str | None = None  # OpenClaw's CommandTargetSessionKey wins (§3)
    is_admin: bool = False  # the adapter vouches for an admin (the policy also knows its own)
    via: Via = "local"  # "chat": a chat user, checked against telegram.*_user_ids; "local": the operator
    lang: Lang = "en"  # the language of what the service renders (preview Markdown)
    surface: Literal["chat", "cli"] | None = (
        None  # who reads the words; None: a chat via "chat", else the CLI
    )

    @property
    def pending_key(self) -> str:
        """One pending preview per (chat, thread)."""
        return scope_key(self.chat_id, self.thread_id)

    @property
    def kind(self) -> ChatType:
        if self.chat_type:
            return self.chat_type
        return "group" if (self.chat_id or "").startswith("-") else "direct"


@dataclass(frozen=True)
class AccessPolicy:
    allowed_user_ids: frozenset[int] = frozenset()
    admin_user_ids: frozenset[int] = frozenset()
    allowed_chat_ids: frozenset[int] = frozenset()
    agent_id: str = "main"

    @classmethod
    def from_settings(cls, settings: Settings) -> AccessPolicy:
        telegram = settings.telegram
        return cls(
            allowed_user_ids=frozenset(telegram.allowed_user_ids),
            admin_user_ids=frozenset(telegram.admin_user_ids),
            allowed_chat_ids=frozenset(telegram.allowed_chat_ids),
            agent_id=settings.agent_id,
        )

    # -- plain questions ------------------------------------------------------------------------

    @property
    def configured(self) -> bool:
        """Has anyone been trusted at all? (Before that, the bot is in its first-run state.)"""
        return bool(self.allowed_user_ids or self.admin_user_ids)

    def user_trusted(self, user_id: str | int | None) -> bool:
        number = _number(user_id)
        return number is not None and (number in self.allowed_user_ids or number in self.admin_user_ids)

    def chat_allowed(self, chat_id: str | int | None) -> bool:
        if not self.allowed_chat_ids:
            return True
        number = _number(chat_id)
        return number is not None and number in self.allowed_chat_ids

    def is_admin(self, scope: Scope) -> bool:
        if scope.via == "local":
            return True
        number = _number(scope.user_id)
        return scope.is_admin or (number is not None and number in self.admin_user_ids)

    def may_record(self, chat_id: str | int, chat_type: ChatType, user_id: str | int | None = None) -> bool:
        """The bot records a chat only where a trusted user could use it: a chat allowed by the
        configuration once someone is trusted, and a private chat only with a trusted user."""
        if not (self.configured and self.chat_allowed(chat_id)):
            return False
        return chat_type != "direct" or self.user_trusted(user_id if user_id is not None else chat_id)

    # -- checks that raise the message the user sees -------------------------------------------

    def require(self, scope: Scope) -> None:
        """Refuse a chat user who may not use savenow in this chat (nothing read, nothing written)."""
        if scope.via == "local":
            return
        if not self.configured:
            raise NotTrustedError(Text("access.not_trusted", user_id=scope.user_id or "?"))
        if not self.chat_allowed(scope.chat_id):
            raise AccessDeniedError(Text("access.chat_not_allowed", chat_id=scope.chat_id or "?"))
        if not self.user_trusted(scope.user_id) and not self.is_admin(scope):
            raise AccessDeniedError(Text("access.user_not_allowed", user_id=scope.user_id or "?"))
        if scope.kind == "direct" and scope.chat_id != scope.user_id and not self.is_admin(scope):
            # A private chat's id is its user's id: nobody else acts in it.
            raise AccessDeniedError(Text("access.user_not_allowed", user_id=scope.user_id or "?"))

    def require_session_key(self, scope: Scope, key: str) -> None:
        """An explicit key must belong to the chat the command is given in; admins may name any."""
        if self.is_admin(scope):
            return
        if key.endswith(":main"):
            raise AccessDeniedError(Text("access.main_admin_only", own_key=self.own_key(scope)))
        same_chat = chat_id_from_key(key) == scope.chat_id and chat_type_from_key(key) == scope.kind
        if not same_chat:
            raise AccessDeniedError(Text("access.key_other_chat", key=key))

    def own_key(self, scope: Scope) -> str:
        """The key of this chat's own session (a DM: the user's direct session)."""
        if scope.kind == "direct":
            return telegram_session_key(
                self.agent_id, chat_type="direct", user_id=scope.user_id or scope.chat_id or "?"
            )
        return telegram_session_key(
            self.agent_id, chat_type="group", chat_id=scope.chat_id or "?", thread_id=scope.thread_id
        )


def _number(value: str | int | None) -> int | None:
    if value is None:
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        return None
