"""A question in one Chinese script finds a note written in the other (text/script.py's fold)."""

from __future__ import annotations

from pathlib import Path

from savenow.search import MemorySearch, SearchOptions

from .conftest import TODAY, write_files

TRADITIONAL = {
    "memory/2026-05-01.md": "# 2026-05-01\n\n## 10:00 - 備份\n- 照片每晚 02:00 備份到 NAS，保留 30 天。\n",
    "memory/2026-05-02.md": "# 2026-05-02\n\n## 11:00 - 證書\n- 新证书到期日 2026-09-01，记得续期。\n",
}


def _search(tmp_path: Path) -> MemorySearch:
    return MemorySearch(write_files(tmp_path / "ws", TRADITIONAL), SearchOptions(), today=TODAY)


def test_a_simplified_question_finds_a_traditional_note(tmp_path: Path) -> None:
    engine = _search(tmp_path)
    try:
        top = engine.search("照片备份保留多久").results[0]
        assert top.path == "memory/2026-05-01.md"
        assert "備份到 NAS" in top.snippet  # the snippet is the note as written
    finally:
        engine.close()


def test_a_traditional_question_finds_a_simplified_note(tmp_path: Path) -> None:
    engine = _search(tmp_path)
    try:
        top = engine.search("證書什麼時候到期").results[0]
        assert top.path == "memory/2026-05-02.md" and "2026-09-01" in top.snippet
    finally:
        engine.close()


def test_a_newer_traditional_note_that_states_a_change_ranks_first(tmp_path: Path) -> None:
    files = {
        "memory/2026-02-01.md": "# 2026-02-01\n\n## 專案設定\n- 專案鎖定 Godot 4.2.2-stable，不升級\n",
        "memory/2026-04-01.md": "# 2026-04-01\n\n## 引擎\n- 升級到 Godot 4.3-stable，模板重新下載了\n",
    }
    engine = MemorySearch(write_files(tmp_path / "ws", files), SearchOptions(), today=TODAY)
    try:
        results = engine.search("專案現在用哪個 Godot 版本").results
        assert [r.path for r in results][:1] == ["memory/2026-04-01.md"]
    finally:
        engine.close()
