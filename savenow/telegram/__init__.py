"""savenow in Telegram (python-telegram-bot 22).

``register(application, settings)`` adds savenow to an existing Application;
``record_outgoing(application, message)`` records what the host bot sends;
``savenow bot`` (:mod:`savenow.telegram.bot`) runs a standalone polling bot.
"""

from __future__ import annotations

from .plugin import SaveNowPlugin, record_outgoing, register

__all__ = ["SaveNowPlugin", "record_outgoing", "register"]
