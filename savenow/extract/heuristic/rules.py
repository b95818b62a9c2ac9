"""The offline extractor's tuning: thresholds, and the named rules with their weights.

Every number the scoring uses lives here, with what it rewards or penalizes, so tuning
touches one file and a rule can be found by its name.
"""

from __future__ import annotations

SEED_MIN = 4.0  # a statement this strong can start a note on its own
MEMBER_MIN = 1.5  # weaker statements may only support a note started by a stronger one
BULLET_RATIO = 0.55  # a supporting sentence becomes a bullet when it scores this share of the seed
MAX_BULLETS = 3
MAX_BULLET_CHARS = 320
SAME_TEXT = 0.5  # similarity above which two sentences say the same thing
FAR_SAME_TEXT = 0.6  # … when they are more than two messages apart and share no identifier
CONFIRM_WINDOW = 10  # messages after a fix in which the user's "works" counts as confirmation
INCIDENT_WINDOW = 6  # messages within which a cause found, confirmed and fixed is one incident
CAUSE_FIX_SAME_TEXT = 0.75  # a cause and its fix share words and identifiers; only near-copies are one bullet
INCIDENT = frozenset({"root_cause", "fix"})
STANDING = frozenset({"future", "owner", "preference"})
