"""skills/savenow/SKILL.md: OpenClaw's frontmatter rules and the commands it names."""

from __future__ import annotations

import json
from pathlib import Path

from savenow.cli import build_parser

SKILL = Path(__file__).resolve().parents[1] / "skills" / "savenow" / "SKILL.md"


def _frontmatter() -> dict[str, str]:
    text = SKILL.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    block = text[4 : text.index("\n---\n", 4)]
    fields = {}
    for line in block.splitlines():
        key, sep, value = line.partition(": ")
        assert sep and key.isidentifier() or key == "user-invocable", f"not a single-line field: {line!r}"
        fields[key] = value
    return fields


def test_frontmatter_fields_are_single_lines() -> None:
    fields = _frontmatter()
    assert fields["name"] == "savenow"
    assert fields["description"] and fields["user-invocable"] == "true"


def test_metadata_is_single_line_json_requiring_the_savenow_binary() -> None:
    metadata = json.loads(_frontmatter()["metadata"])
    assert metadata["openclaw"]["requires"]["bins"] == ["savenow"]


def test_every_savenow_command_the_skill_runs_exists() -> None:
    parser = build_parser()
    text = SKILL.read_text(encoding="utf-8")
    for command in ("preview-diff", "merge-daily-memory", "apply", "cancel"):
        assert f"savenow {command} " in text
    parser.parse_args(["preview-diff", "--entries-file", "e.json", "--pending-file", "p.json"])
    parser.parse_args(["apply", "--pending-file", "p.json", "--session-key", "k", "--message-thread-id", "7"])
    parser.parse_args(["cancel", "--pending-file", "p.json"])
    parser.parse_args(["merge-daily-memory", "--entries-file", "e.json", "--memory-path", "memory/x.md"])
