"""A reader that leaves (``savenow … | head``) ends the command quietly with exit 0, not the OSError line."""

from __future__ import annotations

import subprocess
import sys

_CHILD = """
import argparse
import importlib
cli = importlib.import_module("savenow.cli.main")

def leaves(args):
    raise BrokenPipeError(32, "Broken pipe")

parser = argparse.ArgumentParser()
parser.set_defaults(run=leaves)
cli.build_parser = lambda: parser
raise SystemExit(cli.main([]))
"""


def test_broken_pipe_is_quiet_exit_zero() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD], check=False, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stderr == ""
