"""The command line: an adapter over :mod:`savenow.service`, like the Telegram layer.

- :mod:`.main`       — the argparse front (``savenow.cli:main`` is the console script)
- :mod:`.args`       — settings, scope, ids and language from the flags
- :mod:`.notes`      — preview / auto / list / apply / cancel / undo / demo
- :mod:`.search`     — search / get
- :mod:`.objects`    — objects …
- :mod:`.compaction` — compact …

The script drop-ins (``preview-diff``, ``merge-daily-memory``, ``apply|cancel --pending-file``)
are :mod:`savenow.dropins`.
"""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["build_parser", "main"]
