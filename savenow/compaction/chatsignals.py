"""The chat signals the offline summary borrows from the notes extractor, in one explicit place.

The summary needs eight things it does not own. The question test is the text toolkit's
(:mod:`savenow.text.sentences`). Sentence splitting, ``lowercased`` (the memo'd lowercasing its
screen shares with the lexicons) and three marker lexicons (chit-chat, deferrals, ruled-out
guesses) still live in ``savenow.extract.heuristic.signals``: the splitter
reads the extractor's FIX lexicon and machine-line test, and the lexicons are the extractor's
``Lexeme`` objects (the summary wraps its own lexicons in ``Lexeme`` too, for its fast
case-insensitive search, and summarizes inside ``chat_memo`` so each sentence is lowercased
once), so they move to ``savenow.text`` together; this module is the only place compaction
reaches into them, so that move is a change here and nowhere else.
"""

from __future__ import annotations

import re

from ..extract.heuristic.signals import LEX, Lexeme, chat_memo, lowercased
from ..extract.heuristic.signals import sentences as _split_sentences
from ..text.sentences import is_question

CHITCHAT = LEX.CHITCHAT  # "lol", "thanks", "哈哈", "吃饭" …
DEFERRAL = LEX.DEFERRAL  # "later", "tomorrow", "回头" …
RULED_OUT = LEX.RULED_OUT  # "isn't it", "not it either", "不是这个" …

# A title's full stop ends no sentence: the extractor's splitter cut "contact 是 Mr. Goh +65 6322 9017"
# into "… Mr." and "Goh …", and the person lost their number. The pieces are joined again here.
_TITLE_END = re.compile(r"(?<![A-Za-z])(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sr|Jr|St|Mt)\.$")


def sentences(text: str) -> list[str]:
    """The extractor's sentences of ``text``, with none ending on a title ("Dr.", "Mrs.")."""
    pieces = _split_sentences(text)
    if len(pieces) < 2 or ". " not in text:
        return pieces
    joined: list[str] = []
    for piece in pieces:
        if joined and _TITLE_END.search(joined[-1]):
            joined[-1] = f"{joined[-1]} {piece}"
        else:
            joined.append(piece)
    return joined


__all__ = [
    "CHITCHAT",
    "DEFERRAL",
    "RULED_OUT",
    "Lexeme",
    "chat_memo",
    "is_question",
    "lowercased",
    "sentences",
]
