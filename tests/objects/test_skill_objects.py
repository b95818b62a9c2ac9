"""skills/memory-objects/SKILL.md: OpenClaw's frontmatter rules, and every command it names exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

from savenow.cli import build_parser
from savenow.objects.model import SELF_KEYS

SKILL = Path(__file__).resolve().parents[2] / "skills" / "memory-objects" / "SKILL.md"


def _frontmatter() -> dict[str, str]:
    text = SKILL.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    fields = {}
    for line in text[4 : text.index("\n---\n", 4)].splitlines():
        key, sep, value = line.partition(": ")
        assert sep and (key.isidentifier() or key == "user-invocable"), f"not a single-line field: {line!r}"
        fields[key] = value
    return fields


def test_frontmatter_is_single_line_fields_with_json_metadata() -> None:
    fields = _frontmatter()
    assert fields["name"] == "memory-objects" and fields["user-invocable"] == "true"
    assert json.loads(fields["metadata"])["openclaw"]["requires"]["bins"] == ["savenow"]


def test_every_command_the_skill_runs_parses() -> None:
    parser = build_parser()
    text = SKILL.read_text(encoding="utf-8")
    commands = re.findall(r"`(savenow objects [^`]+)`", text.replace("\n", " "))
    assert len(commands) >= 7
    for command in commands:
        argv = [part.strip('"') for part in command.split()[1:]]
        argv = ["ID" if a.startswith("<") else a for a in argv]
        parser.parse_args(argv)


def test_the_skill_lists_exactly_the_fixed_self_vocabulary() -> None:
    text = SKILL.read_text(encoding="utf-8")
    vocabulary = text[text.index("`self` keys") : text.index("## Query")]
    assert set(re.findall(r"`([a-z_]+)`", vocabulary)) - {"self"} == set(SELF_KEYS)
