"""The one text toolkit: everything that looks at characters lives here.

- :mod:`savenow.text.normalize` — NFKC + case folding, CJK ranges, bigrams, similarity.

The comparer, both extractors, search, compaction and objects import from here; no other
module defines what "CJK" is or how text is normalized.
"""
