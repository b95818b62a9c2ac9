"""The rules read a Traditional Chinese conversation in Simplified, and write its notes in the user's script.

Every lexicon, title rule and bullet rule is written in Simplified: to a pattern a Traditional
character is another character, so a Traditional chat lost its rules' markers, lead-ins and labels.
:func:`folded_input` hands the rules the chat and today's sections folded onto Simplified
(``text.script``: one character for one) and :func:`restored_result` puts what they wrote back:
bullets and titles into the characters the chat and the sections used, a merge target onto the
heading it folds to (the file's own heading, byte for byte). A chat in Simplified or English
goes through unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...models import ChatMessage, DroppedEntry, Entry, ExtractionResult, MemorySection
from ...text.script import ScriptRestorer, fold_traditional

__all__ = ["folded_input", "restored_result"]


def folded_input(
    messages: Sequence[ChatMessage], sections: Sequence[MemorySection]
) -> tuple[Sequence[ChatMessage], Sequence[MemorySection], ScriptRestorer]:
    """The chat and the sections as the rules read them, and the way back."""
    restorer = ScriptRestorer(
        [m.text or "" for m in messages] + [t for s in sections for t in (s.title, *s.bullets)]
    )
    if not restorer:
        return messages, sections, restorer
    folded_messages = [replace(m, text=fold_traditional(m.text or "")) for m in messages]
    folded_sections = [
        replace(s, title=fold_traditional(s.title), bullets=tuple(fold_traditional(b) for b in s.bullets))
        for s in sections
    ]
    return folded_messages, folded_sections, restorer


def restored_result(
    result: ExtractionResult, restorer: ScriptRestorer, sections: Sequence[MemorySection]
) -> ExtractionResult:
    """``result`` in the user's characters; a no-op when the chat had no Traditional character."""
    if not restorer:
        return result
    headings = {fold_traditional(s.title): s.title for s in sections}
    entries = [_restored_entry(entry, restorer, headings) for entry in result.entries]
    dropped = [DroppedEntry(restorer.text(d.title), d.reason) for d in result.dropped]
    return replace(result, entries=entries, dropped=dropped)


def _restored_entry(entry: Entry, restorer: ScriptRestorer, headings: dict[str, str]) -> Entry:
    target = entry.merge_target_title
    heading = headings.get(target) if target is not None else None
    reason = entry.reason
    if reason is not None:  # it quotes headings: the file's own, then the rest in the chat's characters
        for folded in sorted(headings, key=len, reverse=True):
            reason = reason.replace(f'"{folded}"', f'"{headings[folded]}"')
        reason = restorer.text(reason)
    return replace(
        entry,
        title=restorer.text(entry.title),
        bullets=[restorer.text(b) for b in entry.bullets],
        merge_target_title=heading if heading is not None else target,
        reason=reason,
    )
