"""An object extractor keeps nothing between calls: what it refused comes back with its candidates,
so one shared extractor (the service's, used from many Telegram threads) never mixes two chats up."""

from __future__ import annotations

from collections.abc import Sequence

from savenow.errors import ExtractorError
from savenow.messages import Text, localize
from savenow.models import ChatMessage
from savenow.objects.extract import Proposed
from savenow.objects.heuristic import OfflineObjectExtractor
from savenow.objects.llm import FallbackObjectExtractor
from savenow.objects.store import Stored

CHAT = [
    ChatMessage(role="user", text="I'm vegetarian, please remember that", timestamp="2026-03-01T10:00:00Z")
]


class _Scripted:
    """Stands in for the LLM extractor: fails on the calls listed, else refuses one item."""

    name = "llm"

    def __init__(self, failing: set[int]) -> None:
        self.calls = 0
        self.failing = failing

    def propose(self, messages: Sequence[ChatMessage], stored: Sequence[Stored]) -> Proposed:
        self.calls += 1
        if self.calls in self.failing:
            raise ExtractorError(Text("objects.llm_unusable", reason="no JSON"))
        return Proposed(candidates=[], dropped=[f"object {self.calls}: not a JSON object"], extractor="llm")


def test_the_offline_extractor_returns_its_candidates_and_keeps_no_state() -> None:
    extractor = OfflineObjectExtractor()
    first = extractor.propose(CHAT, [])
    assert isinstance(first, Proposed) and first.extractor == "offline" and first.dropped == []
    assert extractor.propose(CHAT, []) == first
    assert not hasattr(extractor, "dropped")


def test_a_fallback_says_so_in_its_own_result_never_in_the_next_call() -> None:
    primary = _Scripted(failing={1})
    extractor = FallbackObjectExtractor(primary, OfflineObjectExtractor)  # type: ignore[arg-type]
    fell_back = extractor.propose(CHAT, [])
    notices = [localize(why) for why in fell_back.dropped]
    assert fell_back.extractor == "offline" and "offline extractor was used" in notices[0]
    answered = extractor.propose(CHAT, [])
    assert answered.extractor == "llm" and answered.dropped == ["object 2: not a JSON object"]
    assert [
        localize(why) for why in fell_back.dropped
    ] == notices  # the second call left the first one's result alone
    assert extractor.name == "llm" and not hasattr(extractor, "dropped")
