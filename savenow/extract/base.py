"""The extractor seam: one interface, an offline and an LLM implementation.

An extractor reads the cleaned transcript (DESIGN §4) and today's memory
sections and proposes 0..5 entries (DESIGN §5.2). It never writes anything;
the comparer (``savenow.memory.compare``) has the last word on add/merge/skip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..models import ChatMessage, ExtractionResult, MemorySection


class Extractor(Protocol):
    name: str  # "heuristic" or "llm", shown in notices and logs

    def extract(self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]) -> ExtractionResult:
        """Propose 0..5 durable notes; raise ``ExtractorError`` (with a user message) on failure."""
        ...
