"""Shared helpers of the offline extractor's tests: write a chat in two letters, extract, read the notes."""

from __future__ import annotations

from savenow.extract.heuristic import HeuristicExtractor
from savenow.models import ChatMessage, Entry, MemorySection


def chat(*lines: str) -> list[ChatMessage]:
    """``"u: text"`` / ``"a: text"`` lines → messages."""
    roles = {"u": "user", "a": "assistant"}
    return [ChatMessage(roles[line[0]], line[3:]) for line in lines]


def extract(messages: list[ChatMessage], sections: list[MemorySection] | None = None) -> list[Entry]:
    return HeuristicExtractor().extract(messages, sections or []).entries


def text_of(entry: Entry) -> str:
    return "\n".join([entry.title, *entry.bullets]).casefold()


def saved(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.action != "skip"]
