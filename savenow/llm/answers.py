"""What every caller does to a model's answer before reading it."""

from __future__ import annotations

import re

__all__ = ["strip_thinking"]

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


def strip_thinking(answer: str | None) -> str:
    """The answer without reasoning models' ``<think>…</think>`` blocks, stripped of surrounding space."""
    return _THINK_BLOCK.sub("", answer or "").strip()
