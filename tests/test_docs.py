"""The README and docs/ link only to files that are in the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_every_relative_link_in_the_docs_names_a_file_in_the_repo() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing = [
        f"{page.relative_to(ROOT)} → {target}"
        for page in pages
        for target in LINK.findall(page.read_text(encoding="utf-8"))
        if not target.startswith(("http://", "https://", "mailto:")) and not (page.parent / target).exists()
    ]
    assert missing == []


def test_the_readme_says_what_the_telegram_defaults_allow() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    telegram = readme[readme.index("## Run it in Telegram") :]
    assert "What the defaults allow" in telegram[:400]
    assert "SAVENOW_TELEGRAM__ALLOWED_USER_IDS='[" in readme
