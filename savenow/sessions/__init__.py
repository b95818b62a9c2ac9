"""Session layer: read OpenClaw session stores, resolve which session /savenow means, clean transcripts.

    catalog = SessionCatalog.from_settings(settings)
    info = catalog.resolve(chat_id="-100123", thread_id="42", chat_type="group")
    transcript = catalog.read_messages(info, limit=settings.transcript_limit)

The recorder (:class:`~savenow.sessions.recorder.SessionRecorder`) writes the same layout
for the bot; import it from ``savenow.sessions.recorder`` (it pulls in ``filelock``).
"""

from __future__ import annotations

from .keys import is_excluded_key, telegram_session_key, validate_session_key
from .openclaw import OpenClawFileStore
from .resolve import SessionCatalog
from .store import ChatIndex, SessionInfo, SessionStore, Transcript, UserMessageProbe, WritableStore
from .transcript import clean_text, message_from_line

__all__ = [
    "ChatIndex",
    "OpenClawFileStore",
    "SessionCatalog",
    "SessionInfo",
    "SessionStore",
    "Transcript",
    "UserMessageProbe",
    "WritableStore",
    "clean_text",
    "is_excluded_key",
    "message_from_line",
    "telegram_session_key",
    "validate_session_key",
]
