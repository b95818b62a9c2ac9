"""The Traditional → Simplified fold: one character for one, a fixed point on savenow's own word lists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import savenow
from savenow.text import script
from savenow.text.cjk import HAN
from savenow.text.script import fold_traditional


@pytest.mark.parametrize(
    ("traditional", "simplified"),
    [
        ("記住這個", "记住这个"),
        ("以後先給結論再給命令", "以后先给结论再给命令"),
        ("資料庫連線逾時", "资料库连线逾时"),
        ("備份腳本在 /srv/backup.sh，埠號 6380", "备份脚本在 /srv/backup.sh，埠号 6380"),
    ],
)
def test_traditional_characters_fold_onto_simplified(traditional: str, simplified: str) -> None:
    assert fold_traditional(traditional) == simplified


def test_the_fold_keeps_length_and_everything_that_is_not_traditional() -> None:
    text = "Redis 端口改成 6380（原來 6379），見 `config/redis.conf` — ok ✅"
    folded = fold_traditional(text)
    assert len(folded) == len(text)
    assert folded == text.replace("來", "来").replace("見", "见")
    assert fold_traditional("plain ASCII, nothing to do") == "plain ASCII, nothing to do"
    assert fold_traditional("") == ""


def test_words_only_one_script_uses_stay_as_written() -> None:
    # a character fold, not a vocabulary converter: 軟體 is folded to 软体, never to 软件
    assert fold_traditional("軟體") == "软体"


def _han_characters_of(paths: list[Path]) -> set[str]:
    han = re.compile(f"[{HAN}]")
    return {char for path in paths for char in han.findall(path.read_text(encoding="utf-8"))}


def test_every_character_of_savenows_word_lists_is_a_fixed_point() -> None:
    """The lexicons, rules and thesaurus are written in Simplified; a character the fold moved would
    move the words written with it away from the folded text they are matched against."""
    package = Path(savenow.__file__).parent
    sources = [path for path in package.rglob("*.py") if path.name != "script.py"]  # its examples
    sources.append(package / "text" / "concepts.txt")
    moved = sorted(char for char in _han_characters_of(sources) if fold_traditional(char) != char)
    assert moved == []


def test_the_shipped_table_is_what_opencc_gives() -> None:
    pytest.importorskip("opencc")
    pairs = script.opencc_pairs()
    assert len(pairs) > 4000
    assert script._table() == {ord(a): ord(b) for a, b in pairs}


def test_the_restorer_puts_folded_runs_back_as_the_texts_wrote_them() -> None:
    restorer = script.ScriptRestorer(["我的頭髮剪短了", "週末發貨，記得提醒我"])
    assert restorer.text(fold_traditional("頭髮剪短了")) == "頭髮剪短了"  # a stretch of the texts
    assert restorer.text("发货提醒") == "發貨提醒"  # two stretches the texts hold, in another order
    assert restorer.text("Redis 6380 ok") == "Redis 6380 ok"


def test_character_by_character_only_where_a_character_has_one_traditional_form() -> None:
    restorer = script.ScriptRestorer(["週末發貨", "風很大", "頭髮"])
    # not held by the texts as a stretch: 风 has one Traditional form, 发 has two (發 / 髮) and stays
    assert restorer.text("风发") == "風发"


def test_a_run_the_texts_wrote_as_it_stands_is_kept() -> None:
    # a path typed in Simplified inside a Traditional session is a real path: never "restored"
    restorer = script.ScriptRestorer(["改好了，發布腳本在下面", "read scripts/发布.sh"])
    assert restorer.text("scripts/发布.sh") == "scripts/发布.sh"


def test_a_restorer_of_simplified_texts_changes_nothing() -> None:
    restorer = script.ScriptRestorer(["记住这个", "plain English"])
    assert not restorer
    assert restorer.text("记住这个 头发") == "记住这个 头发"
