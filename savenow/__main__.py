"""``python -m savenow …``: the same command line as the ``savenow`` script."""

from .cli import main

raise SystemExit(main())
