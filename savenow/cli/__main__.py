"""``python -m savenow.cli …``: the same as the ``savenow`` console script."""

import sys

from .main import main

sys.exit(main())
