"""The offline extractor: durable notes from a chat without a model (DESIGN §7).

For users without an API key this *is* the product, so it aims for few,
precise notes rather than many. The pipeline, in order:

1. **Statements** — every message is split into sentences (fenced code and
   pasted logs are context, never note text). Each sentence is scored from
   signals (:mod:`.signals`): explicit markers ("for the notes", 记住, 以后,
   root cause / 根因, owns / 负责 …), identifiers, an assistant restating what
   the user said, the user confirming a fix afterwards, a yes to "对吗？".
   Questions, hypotheses that were ruled out, attempts the user reports as
   still failing, proposals the user turned down, chit-chat, status pings and
   one-off plans score nothing.
2. **Notes** — statements are grouped around the strongest ones (shared
   identifiers or near-identical wording), so the same fix said three times
   becomes one note; the best 1–3 sentences of a group are its bullets.
   An interview (:mod:`.interviews`: the assistant asks, the user answers
   with values, the assistant takes the answers in) gives one note per
   subject asked about, its answers or their restatements as bullets.
3. **Placement** (:mod:`.placement`) — a note already in today's file becomes
   ``skip``, a note that extends an existing section's topic ``merge``, the
   rest ``add``. The comparer (``savenow.memory.compare.plan``) still has the
   last word.
4. The five most valuable notes are kept (skips only fill free slots).

Deterministic, no I/O, a few milliseconds for 180 messages.
"""

from __future__ import annotations

from .notes import Note, find_notes
from .pipeline import HeuristicExtractor
from .statements import Statement

__all__ = ["HeuristicExtractor", "Note", "Statement", "find_notes"]
