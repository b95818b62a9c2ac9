"""The bot's words: a view on the one catalog (:mod:`savenow.messages`), keys ``bot.*``.

Every string is plain text: the handlers escape it before sending it as HTML.
"""

from __future__ import annotations

from ..messages import Lang, pick_language
from ..messages import text as _text

__all__ = ["Lang", "pick_language", "text"]


def text(name: str, lang: Lang, /, **values: object) -> str:
    """``text("saved", "zh", …)`` → the catalog's ``bot.saved`` in Chinese."""
    return _text(f"bot.{name}", lang, **values)
