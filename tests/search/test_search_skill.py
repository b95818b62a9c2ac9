"""skills/memory-search/SKILL.md: single-line frontmatter and only commands the CLI has."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from savenow.cli import build_parser

SKILL = Path(__file__).resolve().parents[2] / "skills" / "memory-search" / "SKILL.md"


def test_frontmatter_and_metadata() -> None:
    text = SKILL.read_text(encoding="utf-8")
    block = text[4 : text.index("\n---\n", 4)]
    fields = dict(line.split(": ", 1) for line in block.splitlines())
    assert fields["name"] == "memory-search" and fields["description"]
    assert json.loads(fields["metadata"])["openclaw"]["requires"]["bins"] == ["savenow"]


def test_every_command_the_skill_shows_parses() -> None:
    parser = build_parser()
    commands = re.findall(r"^savenow (.+)$", SKILL.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert len(commands) >= 2
    for command in commands:
        args = parser.parse_args(shlex.split(command))
        assert args.command in {"search", "get"}
