"""The chat signals the offline summary borrows from the notes extractor, in one explicit place.

The summary needs five things it does not own: sentence splitting, the question test, and three
marker lexicons (chit-chat, deferrals, ruled-out guesses). They live in
``savenow.extract.heuristic.signals`` today, next to the extractor's internals; this module is the
only place compaction reaches into them, so moving them to ``savenow.text`` later is a change
here and nowhere else.
"""

from __future__ import annotations

from ..extract.heuristic.signals import LEX, is_question, sentences

CHITCHAT = LEX.CHITCHAT  # "lol", "thanks", "哈哈", "吃饭" …
DEFERRAL = LEX.DEFERRAL  # "later", "tomorrow", "回头" …
RULED_OUT = LEX.RULED_OUT  # "isn't it", "not it either", "不是这个" …

__all__ = ["CHITCHAT", "DEFERRAL", "RULED_OUT", "is_question", "sentences"]
