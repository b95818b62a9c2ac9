"""`savenow demo`: the whole flow on the bundled sample, offline, leaving the package data untouched."""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

from savenow.demo import run_demo


def _package_files() -> dict[str, bytes]:
    with resources.as_file(resources.files("savenow") / "demo_data") as folder:
        return {
            str(p.relative_to(folder)): p.read_bytes() for p in sorted(Path(folder).rglob("*")) if p.is_file()
        }


def test_demo_previews_applies_and_prints_the_memory_file(tmp_path: Path) -> None:
    before = _package_files()
    out = io.StringIO()
    assert run_demo(keep=str(tmp_path / "sample"), out=out) == 0
    text = out.getvalue()
    assert text.count("### /savenow preview — memory/2026-11-26.md") == 2
    assert "$ /savenow apply" in text
    memory = (tmp_path / "sample" / "workspace" / "memory" / "2026-11-26.md").read_text(encoding="utf-8")
    assert memory.startswith("# 2026-11-26\n")
    assert "## 09:12 - Deploy conventions" in memory  # the sample's own sections survive
    assert memory in text  # the resulting file is printed
    # who owns another service is a section of its own, not a deploy convention
    assert "## 18:30 - Owner of billing-service\n- Maya owns billing-service" in memory
    assert _package_files() == before
