"""The one cache of the offline extractor's pure functions of a text (a message, a sentence, a bullet).

Remembered per process, bounded: a chat previewed again, or one whose last messages overlap the
last preview's, is split, cleaned and compared only once. (A lexeme's answers have a cache of their
own, :class:`.signals.Lexeme`; what depends on one chat, :class:`.signals.ChatMemo`.)
"""

from __future__ import annotations

from functools import lru_cache

TEXTS = 4096  # texts each function remembers: a chat of 180 messages has about 600 sentences

text_cache = lru_cache(maxsize=TEXTS)
