"""A test hook: SIGKILL this process at the N-th durability point (fsync or rename) of its writes.

``SAVENOW_TEST_KILL_AT=N`` (1-based) makes :func:`point` kill the process with
SIGKILL the N-th time a write reaches an fsync, a rename or an unlink, so the
reliability tests can stop a real write at every step and check the file,
the journal and undo afterwards. Unset (always, outside tests), it costs one
dictionary look-up per point.
"""

from __future__ import annotations

import os

KILL_ENV = "SAVENOW_TEST_KILL_AT"
TRACE_ENV = "SAVENOW_TEST_TRACE_POINTS"  # a file: each point's name is appended there (to count them)
_reached = 0


def point(name: str) -> None:
    """Mark a durability point (``fsync:temp``, ``rename``, ``fsync:dir``, ``fsync:journal``, ``unlink``)."""
    global _reached
    kill_at = os.environ.get(KILL_ENV)
    trace = os.environ.get(TRACE_ENV)
    if kill_at is None and trace is None:
        return
    _reached += 1
    if trace:
        with open(trace, "a", encoding="utf-8") as handle:
            handle.write(name + "\n")
    if kill_at is not None and kill_at.isdigit() and int(kill_at) == _reached:
        import signal  # here: only a test that asks to be killed needs it

        os.kill(os.getpid(), signal.SIGKILL)
