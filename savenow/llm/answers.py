"""What every caller does to a model's answer before reading it."""

from __future__ import annotations

import re

__all__ = ["strip_thinking", "unfenced_answer"]

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```[a-zA-Z]*\n(.*)\n```$", re.DOTALL)


def strip_thinking(answer: str | None) -> str:
    """The answer without reasoning models' ``<think>…</think>`` blocks, stripped of surrounding space."""
    return _THINK_BLOCK.sub("", answer or "").strip()


def unfenced_answer(answer: str | None) -> str:
    """The answer without ``<think>`` blocks and without one Markdown code fence wrapped round all of it
    (models fence JSON and Markdown answers they were asked to give bare)."""
    text = strip_thinking(answer)
    fenced = _FENCE.match(text)
    return fenced.group(1).strip() if fenced else text
