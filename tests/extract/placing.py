"""One statement placed against sections, the way the extractor calls placement: for tests that ask
"add or merge, and under which heading?" of a single sentence."""

from __future__ import annotations

from savenow.extract.heuristic.placement import place
from savenow.models import MemorySection
from savenow.text.identifiers import identifiers


class _Said:
    def __init__(self, bullet: str) -> None:
        self.bullet = bullet
        self.ids = frozenset(identifiers(bullet))


def placed(text: str, sections: list[MemorySection]) -> tuple[str, str | None]:
    placement = place([_Said(text)], frozenset(identifiers(text)), set(), False, sections)
    assert placement is not None
    return placement.action, placement.section_title
