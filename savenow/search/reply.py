"""The reply to ``/recall <query>`` (and ``/savenow search <query>``), in the user's language.

The Telegram adapter checks the user is allowed, then sends ``recall_reply(search, query, lang)``
as plain text: top snippets, each with ``path:line`` and its date.
"""

from __future__ import annotations

from .engine import MemorySearch, SearchResponse

__all__ = ["TEXTS", "format_recall", "recall_reply"]

SNIPPET_LINES = 3  # per hit, in a chat message
MAX_HITS = 5

TEXTS: dict[str, dict[str, str]] = {
    "usage": {"en": "Usage: /recall <what to look for>", "zh": "用法：/recall <要找的内容>"},
    "none": {"en": "Nothing in memory matches “{query}”.", "zh": "记忆里没有找到与“{query}”相关的内容。"},
    "header": {"en": "Memory for “{query}”:", "zh": "关于“{query}”的记忆："},
    "undated": {"en": "long-term", "zh": "长期记忆"},
    "lexical": {
        "en": "(keyword search only: the embeddings provider failed)",
        "zh": "（仅关键词搜索：向量服务出错）",
    },
}


def _t(key: str, lang: str, **values: str) -> str:
    table = TEXTS[key]
    return table["zh" if lang.startswith("zh") else "en"].format(**values)


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
