"""The pipeline /savenow's preview and the skill's drop-ins share: compare, then render (DESIGN §6–§7).

:func:`draft` plans entries against the parsed memory file (add / merge / skip) and renders the §6
preview; nothing is written. It lives in the memory engine, not the service, so ``savenow
preview-diff`` loads neither the service's results nor its collaborators; the service imports it
when a preview or ``auto`` runs, not for ``list`` or ``cancel``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..models import DroppedEntry, Entry
from .compare import Decision, plan
from .document import MemoryDocument
from .preview import Surface, nothing_to_apply, render_preview


@dataclass
class Draft:
    """Entries compared with one memory file, and the §6 preview of that plan. Nothing is written."""

    decisions: list[Decision]
    markdown: str

    @property
    def entries(self) -> list[Entry]:
        """After the comparer: final action, resolved merge target."""
        return [decision.entry for decision in self.decisions]

    @property
    def anything_to_apply(self) -> bool:
        return bool(self.decisions) and not nothing_to_apply(self.decisions)


def draft(
    entries: list[Entry],
    document: MemoryDocument,
    *,
    memory_label: str,
    ttl_minutes: int,
    dropped: Sequence[DroppedEntry] = (),
    notices: Sequence[str] = (),
    lang: str = "en",
    surface: Surface = "skill",
) -> Draft:
    """Plan ``entries`` against ``document`` (add / merge / skip, DESIGN §7) and render the preview."""
    decisions = plan(entries, document)
    markdown = render_preview(
        decisions,
        memory_label=memory_label,
        ttl_minutes=ttl_minutes,
        dropped=dropped,
        notices=notices,
        lang=lang,
        surface=surface,
    )
    return Draft(decisions=decisions, markdown=markdown)
