"""The one text toolkit: everything that looks at characters lives here.

- :mod:`savenow.text.cjk` — what counts as CJK (the one definition), ``HAN`` for regexes.
- :mod:`savenow.text.normalize` — NFKC + case folding, compact form, bigrams, similarity.
- :mod:`savenow.text.identifiers` — paths, hosts, env vars, IDs, code spans.
- :mod:`savenow.text.stopwords` — stopwords per language (English, Chinese).
- :mod:`savenow.text.sentences` — the shape of chat sentences (the question test).
- :mod:`savenow.text.tokens` — token estimates without a tokenizer (DESIGN §7).

The comparer, both extractors, search, compaction and objects import from here; no other
module defines what "CJK" is or how text is normalized.
"""
