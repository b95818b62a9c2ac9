"""The reply to ``/recall <query>`` (and ``/savenow search <query>``), in the user's language.

The Telegram adapter checks the user is allowed, then sends ``recall_reply(search, query, lang)``
as plain text: top snippets, each with ``path:line`` and its date.
"""

from __future__ import annotations

from ..messages import text
from .engine import MemorySearch, SearchResponse

__all__ = ["format_recall", "recall_reply"]

SNIPPET_LINES = 3  # per hit, in a chat message
MAX_HITS = 5


def _t(key: str, lang: str, **values: str) -> str:
    """The catalog's ``search.recall.<key>`` (:mod:`savenow.messages`)."""
    return text(f"search.recall.{key}", lang, **values)


def format_recall(response: SearchResponse, query: str, lang: str = "en") -> str:
    shown = query if len(query) <= 80 else query[:79] + "…"
    if not response.results:
        return _t("none", lang, query=shown)
    lines = [_t("header", lang, query=shown)]
    for number, hit in enumerate(response.results[:MAX_HITS], 1):
        when = hit.day or _t("undated", lang)
        lines.append(f"{number}. {hit.path}:{hit.start_line} · {when}")
        body = [line.strip() for line in hit.snippet.split("\n") if line.strip()]
        lines.extend(f"   {line[:200]}" for line in body[:SNIPPET_LINES])
    if response.fallback and response.fallback.get("reason") == "provider_error":
        lines.append(_t("lexical", lang))
    return "\n".join(lines)


def recall_reply(search: MemorySearch, query: str, lang: str = "en") -> str:
    """The whole reply for a query (empty query → the usage line). Never raises for a bad provider."""
    query = query.strip()
    if not query:
        return _t("usage", lang)
    return format_recall(search.search(query, max_results=MAX_HITS), query, lang)
