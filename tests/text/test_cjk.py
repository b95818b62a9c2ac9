"""One definition of CJK: the ranges, the Han class the extractors match with, runs and n-grams."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import savenow
from savenow.text.cjk import HAN, cjk_ratio, han_ngrams, han_runs, has_cjk, is_cjk
from savenow.text.tokens import count_cjk


@pytest.mark.parametrize(
    "char",
    ["网", "\u3400", "\uf900", "\U00020000", "\U0003134a"],  # unified, ext A, compatibility, ext B, ext G
)
def test_every_ideograph_block_is_han_and_cjk(char: str) -> None:
    assert re.fullmatch(f"[{HAN}]", char)
    assert is_cjk(char)


@pytest.mark.parametrize("char", ["か", "カ", "한"])
def test_kana_and_hangul_are_cjk_letters_but_not_han(char: str) -> None:
    assert is_cjk(char)
    assert not re.fullmatch(f"[{HAN}]", char)


def test_cjk_punctuation_counts_for_tokens_but_is_no_letter() -> None:
    assert not has_cjk("，。「」")
    assert count_cjk("，。「」") == 4
    assert cjk_ratio("网关 ok") == pytest.approx(0.5)


def test_han_runs_and_ngrams() -> None:
    assert han_runs("改 gateway.cmd 后重启网关", 2) == ["后重启网关"]
    assert han_ngrams("重启网关") == frozenset({"重启", "启网", "网关"})
    assert han_ngrams("a网b关", 2) == frozenset()
    assert han_ngrams("数据库备份", 3) == frozenset({"数据库", "据库备", "库备份"})


def test_no_other_module_defines_a_han_range() -> None:
    root = Path(savenow.__file__).parent
    own = root / "text" / "cjk.py"
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path != own
        and re.search(r"\\u4e00|\\u9fff|0x4E00|0x9FFF", path.read_text(encoding="utf-8"), re.IGNORECASE)
    ]
    assert offenders == []
