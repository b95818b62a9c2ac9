"""The storage layer: file IO, locks, write targets and the change log, for every feature.

- :mod:`.files`   — byte-exact reads (never a FIFO), atomic writes (temp + fsync + rename + fsync dir),
  temp files outside ``memory/`` and their cleanup, disk errors as one line.
- :mod:`.locks`   — one exclusive lock per target, in ``<workspace>/.savenow/locks``.
- :mod:`.targets` — where a write may land (regular ``.md`` inside the allowed folders; state files).
- :mod:`.journal` — the per-file change log (intent + commit around each rename) and multi-level undo.
- :mod:`.faults`  — the kill-point test hook (``SAVENOW_TEST_KILL_AT``).

Depends only on :mod:`savenow.errors` and :mod:`savenow.text`: memory, pending, objects and
compaction build on it, never the other way round.
"""
