"""What the objects feature says to a user: a view on the one catalog (:mod:`savenow.messages`), keys
``objects.*`` (plain text; adapters escape)."""

from __future__ import annotations

from ..messages import Lang
from ..messages import text as _text

__all__ = ["Lang", "text"]


def text(key: str, lang: str = "en", **values: object) -> str:
    return _text(f"objects.{key}", lang, **values)
