"""Labels inside bilingual messages speak the reader's language (config sources, where the workspace
came from, why the LLM or the objects extractor dropped something, the search fallback)."""

from __future__ import annotations

import pytest

from savenow.config import load_settings
from savenow.errors import ConfigError
from savenow.extract.llm import entries_from_reply
from savenow.memory.preview import render_preview
from savenow.messages import localize
from savenow.objects.llm import candidates_from_reply
from savenow.search.engine import MemorySearch
from savenow.search.options import SearchOptions

HAN = range(0x4E00, 0xA000)


def has_han(value: str) -> bool:
    return any(ord(ch) in HAN for ch in value)


@pytest.mark.parametrize(
    ("where", "en_source", "zh_source"),
    [
        ("env", "environment variable SAVENOW_TRANSCRIPT_LIMIT", "环境变量 SAVENOW_TRANSCRIPT_LIMIT"),
        ("flag", "command-line flag", "命令行参数"),
    ],
)
def test_a_bad_value_names_its_source_in_both_languages(
    where: str, en_source: str, zh_source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SAVENOW_CONFIG", raising=False)
    if where == "env":
        monkeypatch.setenv("SAVENOW_TRANSCRIPT_LIMIT", "5")
        flags = {}
    else:
        flags = {"transcript_limit": 5}
    with pytest.raises(ConfigError) as caught:
        load_settings(**flags)
    assert en_source in caught.value.message("en")
    assert zh_source in caught.value.message("zh") and "command-line" not in caught.value.message("zh")


def test_where_the_workspace_came_from_is_said_in_chinese(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(workspace=str(tmp_path))
    assert settings.openclaw.workspace_from.render("en") == "savenow settings"
    assert settings.openclaw.workspace_from.render("zh") == "savenow 设置"
    assert settings.openclaw.timezone_from.render("zh") == "本机"


def test_llm_dropped_reasons_follow_the_preview_language() -> None:
    result = entries_from_reply(
        [
            {"title": "", "bullets": []},
            *[{"title": f"T{i}", "bullets": ["b"]} for i in range(6)],
            {"title": 5, "bullets": "x"},
        ]
    )
    reasons = [d.reason for d in result.dropped]
    assert reasons and all(has_han(localize(r, "zh")) for r in reasons)
    assert not any(has_han(localize(r, "en")) for r in reasons)
    zh = render_preview([], memory_label="memory/x.md", ttl_minutes=30, dropped=result.dropped, lang="zh")
    assert "超过 5 条的上限" in zh and "over the" not in zh


def test_objects_dropped_reasons_follow_the_language() -> None:
    _, dropped = candidates_from_reply(["not an object", {"type": "spaceship", "name": "x"}], [])
    assert localize(dropped[0], "en") == "object 1: not a JSON object"
    assert all(has_han(localize(d, "zh")) for d in dropped)


def test_the_search_fallback_notice_is_catalogued(tmp_path) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-11-28.md").write_text("## 09:00 - Port\n- the gateway listens on 8443\n")
    with MemorySearch(tmp_path, SearchOptions()) as engine:
        response = engine.search("gateway")
    assert response.fallback is not None
    assert response.fallback["message"] == "no embeddings provider configured: keyword search only"
    assert response.fallback_notice is not None and has_han(response.fallback_notice.render("zh"))
    assert "fallback_notice" not in response.to_json()
