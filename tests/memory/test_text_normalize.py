"""text.normalize: normalization and CJK-aware similarity."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from savenow.text.normalize import (
    bullet_key,
    bullet_keys,
    cjk_ratio,
    compact,
    compact_many,
    has_cjk,
    normalize,
    normalize_many,
    similarity,
)


def test_normalize_folds_width_case_and_strips_markdown() -> None:
    assert normalize("## `Gateway_Token` **Fix**，ＡＢＣ！") == "gateway token fix abc"
    assert normalize("  many   spaces\tand\ttabs ") == "many spaces and tabs"


def test_compact_drops_spaces_next_to_cjk_only() -> None:
    assert compact("网关 令牌，gateway.cmd 设置") == "网关令牌gateway cmd设置"
    assert compact("Gateway token") == "gateway token"


def test_bullet_key_ignores_spacing_and_punctuation() -> None:
    assert bullet_key("通过更新 `gateway.cmd` 解决。") == bullet_key("通过更新gateway cmd解决")


def test_batch_forms_equal_single_forms() -> None:
    texts = ["  Hello,  World ", "网关 令牌，gateway.cmd", "", "A_b  c ", "“引号”", "- x", "line\u2028sep"]
    assert normalize_many(texts) == [normalize(t) for t in texts]
    assert compact_many(texts) == [compact(t) for t in texts]
    assert bullet_keys(texts) == [bullet_key(t) for t in texts]


def test_batch_forms_fall_back_for_multiline_text() -> None:
    assert normalize_many(["a\nb", "C"]) == ["a b", "c"]


def test_cjk_detection() -> None:
    assert has_cjk("修复") and has_cjk("カタカナ") and has_cjk("한국어")
    assert not has_cjk("plain ascii")
    assert cjk_ratio("ab修复") == 0.5
    assert cjk_ratio("   ") == 0.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("网关令牌不匹配修复", "网关令牌不匹配的修复方法"),
        ("Gateway token mismatch fix", "Fix for gateway token mismatch"),
        ("部署流程", "部署流程说明"),
        ("Telegram UI conventions", "Telegram UI convention"),
    ],
)
def test_similar_titles_score_high(a: str, b: str) -> None:
    assert similarity(a, b) >= 0.75


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("网关令牌不匹配修复", "Nginx 上传大小限制"),
        ("Gateway token mismatch fix", "Nginx upload size limit"),
        ("数据库备份策略", "网关令牌不匹配修复"),
    ],
)
def test_unrelated_titles_score_low(a: str, b: str) -> None:
    assert similarity(a, b) < 0.25


def test_similarity_bounds_and_symmetry() -> None:
    assert similarity("", "anything") == 0.0
    assert similarity("Same", "same!") == 1.0
    assert similarity("a b c", "c d e") == similarity("c d e", "a b c")


@given(st.lists(st.text(max_size=30), max_size=8))
def test_batch_forms_match_single_forms_on_any_text(texts: list[str]) -> None:
    assert normalize_many(texts) == [normalize(t) for t in texts]
    assert compact_many(texts) == [compact(t) for t in texts]
    assert bullet_keys(texts) == [bullet_key(t) for t in texts]
