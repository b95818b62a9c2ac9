"""Where a compaction cuts (DESIGN §13).

* Keep at least ``preserve_recent`` messages verbatim.
* Never start the kept part on a tool result: move the cut back to its call,
  so a call and its result stay together.
* A turn is not split when its start is near: when the kept part would start
  inside an assistant run, and the user message that opened that run is at most
  ``preserve_recent`` messages further back, the cut moves back to it.
* Nothing before the cut → nothing to compact (the second compaction with
  nothing new is a no-op).
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import SessionMessage


def cut_index(messages: Sequence[SessionMessage], preserve_recent: int) -> int:
    """The index of the first kept message; 0 means nothing to remove."""
    count = len(messages)
    cut = count - max(preserve_recent, 0)
    if cut <= 0:
        return 0
    while cut > 0 and messages[cut].is_tool_result:
        cut -= 1  # a result stays with its call
    if cut > 0 and messages[cut].role != "user":
        start = cut
        while start > 0 and messages[start].role != "user":
            start -= 1
        if messages[start].role == "user" and cut - start <= max(preserve_recent, 1):
            cut = start
    return cut
