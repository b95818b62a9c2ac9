"""Time in the configured time zone. ``SAVENOW_NOW`` (ISO-8601) fixes the clock.

Everything that asks "what time is it" takes a :class:`Clock`, so tests inject
one and never sleep for a TTL.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import ConfigError
from .messages import Text

if TYPE_CHECKING:  # datetime loads on first use: `compact status` never asks the time
    from datetime import date, datetime, tzinfo

NOW_ENV = "SAVENOW_NOW"


def load_timezone(name: str | None) -> tzinfo | None:
    """An IANA zone, or None for the system's local zone."""
    if not name:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(Text("clock.unknown_timezone", name=name)) from exc


def parse_now(value: str, tz: tzinfo | None = None) -> datetime:
    """Parse a ``SAVENOW_NOW`` value; a naive time is taken in ``tz`` (or local)."""
    from datetime import datetime

    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise ConfigError(Text("clock.now_not_iso", env=NOW_ENV, value=value)) from exc
    if not 1970 <= parsed.year <= 9000:
        # Expiry times are now + TTL and zones shift by hours: near year 9999 that overflows.
        raise ConfigError(Text("clock.now_year_out_of_range", env=NOW_ENV, year=parsed.year, value=value))
    if parsed.tzinfo is None:
        try:
            parsed = parsed.replace(tzinfo=tz) if tz else parsed.astimezone()
        except (OverflowError, OSError, ValueError) as exc:
            raise ConfigError(Text("clock.now_unusable", env=NOW_ENV, value=value)) from exc
    return parsed


@dataclass
class Clock:
    """Wall clock in a zone; ``fixed`` pins it (``SAVENOW_NOW`` or a test)."""

    tz: tzinfo | None = None
    fixed: datetime | None = None
    _source: Callable[[], datetime] | None = field(default=None, repr=False)

    @classmethod
    def from_env(cls, tz: tzinfo | None = None) -> Clock:
        raw = os.environ.get(NOW_ENV)
        return cls(tz=tz, fixed=parse_now(raw, tz) if raw else None)

    def now(self) -> datetime:
        if self.fixed is not None:
            current = self.fixed
        elif self._source is not None:
            current = self._source()
        else:
            from datetime import datetime

            current = datetime.now().astimezone()
        return current.astimezone(self.tz) if self.tz else current.astimezone()

    def today(self) -> date:
        return self.now().date()

    def advance(self, **delta: float) -> None:
        """Move a fixed clock forward (tests)."""
        from datetime import timedelta

        self.fixed = self.now() + timedelta(**delta)
