"""Which object extractor runs: ``objects.extractor`` (auto | heuristic | llm).

Above :mod:`.extract` (the interface and the planning step), :mod:`.heuristic` and :mod:`.llm`,
so the interface never imports the engines that implement it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .extract import ObjectExtractor

if TYPE_CHECKING:
    from ..config import Settings


def _offline() -> ObjectExtractor:
    from .heuristic import OfflineObjectExtractor

    return OfflineObjectExtractor()


def build_object_extractor(settings: Settings) -> ObjectExtractor:
    """``objects.extractor``: heuristic (offline), llm, or auto — the LLM when ``llm.base_url`` and a key
    are set, like ``extractor: auto``. With ``llm.fallback_to_heuristic`` an LLM failure runs the
    offline rules and the preview's ``dropped`` says so; otherwise it is an error, nothing written."""
    choice = settings.objects.extractor
    if choice == "heuristic" or (choice == "auto" and not settings.llm.configured):
        return _offline()
    from .llm import FallbackObjectExtractor, LLMObjectExtractor

    llm = LLMObjectExtractor(settings.llm)
    if settings.llm.fallback_to_heuristic:
        return FallbackObjectExtractor(llm, _offline)
    return llm
