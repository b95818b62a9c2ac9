"""The offline rules see a Traditional Chinese conversation in Simplified, and answer in the user's script.

The rules' word lists are Simplified (to a pattern a Traditional character is another character), so :func:`folded_view` hands
them the conversation and the stored objects folded onto Simplified (``text.script``: one
character for one), and :meth:`ScriptRestorer.restore` puts every text field of what they propose
back into the characters this conversation and these objects used: each folded character becomes
the Traditional one it stood for here. Text the conversation never wrote in Traditional stays as
the rules wrote it. A conversation in Simplified or English goes through unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ..models import ChatMessage
from ..text.script import ScriptRestorer, fold_traditional
from .model import LIST_FIELDS, MemoryObject
from .store import Stored

__all__ = ["ObjectRestorer", "folded_view"]

_TEXT_FIELDS = ("summary", "name", "relation", "title", "detail")


class ObjectRestorer(ScriptRestorer):
    """A :class:`ScriptRestorer` that puts a proposed object's text fields back."""

    def restore(self, obj: MemoryObject) -> MemoryObject:
        return _with_texts(obj, self.text) if self else obj


def _with_texts(obj: MemoryObject, change: Callable[[str], str]) -> MemoryObject:
    """``obj`` with ``change`` applied to each of its text fields and list items."""
    changes: dict[str, object] = {
        name: change(value) for name in _TEXT_FIELDS if isinstance(value := getattr(obj, name), str)
    }
    changes.update({name: [change(item) for item in getattr(obj, name)] for name in LIST_FIELDS})
    changes["aliases"] = [change(alias) for alias in obj.aliases]
    return replace(obj, **changes)  # type: ignore[arg-type]


def _object_texts(obj: MemoryObject) -> list[str]:
    texts = [value for name in _TEXT_FIELDS if isinstance(value := getattr(obj, name), str)]
    return texts + [item for name in LIST_FIELDS for item in getattr(obj, name)] + list(obj.aliases)


def folded_view(
    messages: Sequence[ChatMessage], stored: Sequence[Stored]
) -> tuple[list[ChatMessage], list[Stored], ObjectRestorer]:
    """The conversation and the stored objects as the rules read them, and the way back."""
    restorer = ObjectRestorer([m.text for m in messages] + [t for s in stored for t in _object_texts(s.obj)])
    if not restorer:
        return list(messages), list(stored), restorer
    folded_messages = [replace(m, text=fold_traditional(m.text)) for m in messages]
    folded_stored = [
        replace(
            s,
            text=fold_traditional(s.text),
            parsed=replace(s.parsed, obj=_with_texts(s.obj, fold_traditional)),
        )
        for s in stored
    ]
    return folded_messages, folded_stored, restorer
