from __future__ import annotations

import itertools

from savenow.search.chunking import chunk_markdown
from savenow.search.tokenize import document_terms, query_terms
from savenow.text.segment import bigram_words, get_segmenter


def _terms(text: str) -> dict[str, float]:
    return {t.term: t.weight for t in query_terms(text)}


def test_identifiers_are_kept_whole_and_in_parts() -> None:
    terms = _terms("vm.overcommit_memory")
    assert terms["vm.overcommit_memory"] == 1.0
    assert {"vm", "overcommit", "memory"} <= set(terms)
    assert terms["memory"] < 1.0
    assert "postgres:16.4-alpine" in _terms("postgres:16.4-alpine 是哪个")
    assert "203.0.113.47" in _terms("203.0.113.47")
    assert "openclaw_gateway_token" in _terms("OPENCLAW_GATEWAY_TOKEN")
    assert _terms("a828e60") == {"a828e60": 1.0}


def test_a_leading_minus_stays_on_a_number() -> None:
    terms = _terms("-1003566973693")
    assert terms["-1003566973693"] == 1.0
    assert "-1003566973693" in document_terms("chat id -1003566973693.")


def test_han_text_becomes_bigrams_and_two_character_words_match() -> None:
    assert bigram_words("证书到期") == ["证书", "书到", "到期"]
    assert bigram_words("猫") == ["猫"]
    doc = document_terms("新证书到期日")
    assert doc["证书"] == 1 and doc["到期"] == 1
    assert doc["证"] == 1  # characters too, for partial credit


def test_question_words_score_nothing() -> None:
    terms = _terms("证书什么时候到期")
    assert terms["什么"] == 0 and terms["时候"] == 0
    assert terms["证书"] == 1.0 and terms["到期"] == 1.0
    assert _terms("what is it")  # a query of nothing but stop words still searches for them


def test_mixed_text_without_spaces_splits_at_the_script_change() -> None:
    terms = _terms("UPS电池哪天换的")
    assert "ups" in terms and terms["电池"] == 1.0


def test_unknown_segmenter_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError):
        get_segmenter("nope")


def test_sections_have_one_based_inclusive_line_ranges() -> None:
    text = "# 2026-01-01\n\n## A\n- one\n- two\n\n## B\n- three\n"
    chunks = chunk_markdown(text)
    assert [(c.start_line, c.end_line) for c in chunks] == [(3, 5), (7, 8)]
    lines = text.split("\n")
    assert lines[chunks[1].start_line - 1] == "## B"
    assert chunks[0].text == "## A\n- one\n- two"


def test_long_sections_split_with_overlap_and_keep_their_heading() -> None:
    bullets = [f"- 第{i}条笔记，内容是关于服务器维护的一些细节和步骤说明" for i in range(60)]
    text = "## 维护记录\n" + "\n".join(bullets) + "\n"
    chunks = chunk_markdown(text, max_tokens=400, overlap_tokens=80)
    assert len(chunks) >= 3
    for first, second in itertools.pairwise(chunks):
        assert second.start_line <= first.end_line  # overlap
        assert second.start_line > first.start_line
    assert all(c.indexed_text.startswith("## 维护记录") for c in chunks)
    assert chunks[-1].end_line == 61


def test_sub_identifiers_short_hashes_and_flags() -> None:
    assert _terms("203.0.113.47:8443")["203.0.113.47"] < 1.0  # host of host:port
    assert "203.0.113.47" in document_terms("public IP 203.0.113.47:8443")
    assert "a828e60" in document_terms("merged as a828e60f3b2c9d1e")  # git's short form
    assert "--force-recreate" in _terms("--force-recreate")
    assert "openclaw.json" in document_terms("config in ~/.openclaw/openclaw.json")
