"""Extractors: the offline heuristic and the LLM, chosen by ``settings.extractor`` (DESIGN §11).

``build_extractor(settings)`` is the one entry point the service uses:

* ``heuristic`` → :class:`~savenow.extract.heuristic.HeuristicExtractor` (offline);
* ``llm`` → :class:`~savenow.extract.llm.LLMExtractor`;
* ``auto`` → the LLM when ``llm.base_url`` and an API key are configured, else offline.

With ``llm.fallback_to_heuristic: true`` an LLM failure runs the offline
extractor instead and says so in the result's notices; off by default, so a
failure is reported rather than hidden.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..errors import ExtractorError
from ..messages import Text
from ..models import ChatMessage, ExtractionResult, MemorySection
from .base import Extractor

if TYPE_CHECKING:
    from ..config import Settings

__all__ = ["Extractor", "FallbackExtractor", "build_extractor"]

log = logging.getLogger("savenow.extract")


class FallbackExtractor:
    """The LLM first; on an ``ExtractorError`` the offline extractor, with a notice saying so."""

    def __init__(self, primary: Extractor, make_fallback: Callable[[], Extractor]) -> None:
        self._primary = primary
        self._make_fallback = make_fallback
        self.name = primary.name

    def extract(self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]) -> ExtractionResult:
        try:
            return self._primary.extract(messages, sections)
        except ExtractorError as error:
            log.warning("LLM extractor failed (%s); using the offline extractor", error.en)
            result = self._make_fallback().extract(messages, sections)
            result.notices.insert(0, Text("llm.fell_back_offline", reason=error))
            return result


def _heuristic() -> Extractor:
    # Imported here: the heuristic module is independent of the LLM stack and vice versa.
    from .heuristic import HeuristicExtractor

    return HeuristicExtractor()


def build_extractor(settings: Settings) -> Extractor:
    """The extractor ``settings`` ask for (``extractor: auto | heuristic | llm``)."""
    if not settings.use_llm:
        return _heuristic()
    from .llm import LLMExtractor  # httpx and pydantic load only when the LLM is used

    llm = LLMExtractor(settings.llm)
    if settings.llm.fallback_to_heuristic:
        return FallbackExtractor(llm, _heuristic)
    return llm
