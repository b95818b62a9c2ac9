"""memory_search on a small bilingual workspace: languages, identifiers, recency, negatives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from savenow.cli import main
from savenow.search import MemorySearch, SearchOptions

from .conftest import TODAY


def _top(search: MemorySearch, query: str) -> tuple[str, str]:
    results = search.search(query).results
    assert results, f"nothing found for {query!r}"
    return results[0].path, results[0].snippet


def test_a_chinese_query_finds_a_two_character_word(search: MemorySearch) -> None:
    path, snippet = _top(search, "证书什么时候到期")
    assert path == "memory/2026-05-20.md" and "2026-09-01" in snippet


def test_a_chinese_phrase_query(search: MemorySearch) -> None:
    path, snippet = _top(search, "照片备份保留多久")
    assert path == "memory/2026-04-11.md" and "保留 30 天" in snippet


def test_an_english_query(search: MemorySearch) -> None:
    path, snippet = _top(search, "who runs the book club")
    assert path == "MEMORY.md" and "Tom" in snippet


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("-1009876543210", "memory/2026-03-02.md"),
        ("vm.dirty_ratio", "memory/2026-05-20.md"),
        ("nginx:1.27-alpine", "memory/2026-05-20.md"),
        ("b7c41d2", "memory/2026-05-20.md"),
        ("RESTIC_REPOSITORY", "memory/2026-04-11.md"),
    ],
)
def test_identifiers(search: MemorySearch, query: str, expected: str) -> None:
    assert _top(search, query)[0] == expected


def test_a_mixed_query(search: MemorySearch) -> None:
    path, snippet = _top(search, "Backup job 用的哪个 env")
    assert path == "memory/2026-04-11.md" and "RESTIC_REPOSITORY" in snippet


def test_the_newer_note_ranks_above_the_one_it_supersedes(search: MemorySearch) -> None:
    results = search.search("路由器管理端口是多少").results
    paths = [r.path for r in results]
    assert paths.index("memory/2026-05-20.md") < paths.index("memory/2026-03-02.md")
    assert "8443" in results[0].snippet


def test_memory_md_does_not_decay(search: MemorySearch) -> None:
    hit = next(r for r in search.search("老婆生日").results if r.path == "MEMORY.md")
    assert hit.day is None and hit.rank_score == hit.score


def test_recency_reorders_but_never_changes_the_score(workspace: Path) -> None:
    early = MemorySearch(workspace, SearchOptions(), today=TODAY).search("路由器管理端口").results
    late = (
        MemorySearch(workspace, SearchOptions(), today=TODAY.replace(year=2030))
        .search("路由器管理端口")
        .results
    )
    assert sorted(r.score for r in early) == sorted(r.score for r in late)


@pytest.mark.parametrize(
    "query", ["护照什么时候过期", "Kubernetes cluster upgrade version", "guest wifi password"]
)
def test_questions_nothing_answers_come_back_empty(search: MemorySearch, query: str) -> None:
    assert search.search(query).results == []


def test_min_score_filters_and_results_carry_the_json_fields(search: MemorySearch) -> None:
    response = search.search("证书到期", min_score=0.0)
    assert response.results
    row = response.to_json()["results"][0]
    assert set(row) >= {"path", "startLine", "endLine", "score", "snippet", "source"}
    assert row["source"] == "memory" and len(row["snippet"]) <= 700
    loose = search.search("证书 照片", min_score=0.0).results
    strict = search.search("证书 照片", min_score=0.6).results
    assert len(loose) >= 2 and all(r.score >= 0.6 for r in strict) and len(strict) < len(loose)
    assert response.fallback == {
        "mode": "lexical",
        "reason": "no_provider",
        "message": "no embeddings provider configured: keyword search only",
    }


def test_cli_json_shape_and_a_leading_minus(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--workspace", str(workspace), "--json", "-1009876543210"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"results", "provider", "model", "fallback"}
    assert data["results"][0]["path"] == "memory/2026-03-02.md"
    assert data["provider"] == "lexical" and data["fallback"]["reason"] == "no_provider"
    assert main(["search", "--workspace", str(workspace), "--max-results", "1", "--", "证书"]) == 0
    assert "memory/2026-05-20.md:" in capsys.readouterr().out


def test_cli_refuses_bad_flags(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--workspace", str(workspace), "--min-score", "3", "x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--min-score" in err


def test_extra_paths_are_searched_and_symlinks_ignored(workspace: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "garden.md").write_text("## Garden\n- 番茄 planted on the balcony\n", encoding="utf-8")
    (notes / "data.txt").write_text("番茄 in a text file\n", encoding="utf-8")
    outside = tmp_path / "secret.md"
    outside.write_text("## Secret\n- 番茄 secret\n", encoding="utf-8")
    (workspace / "memory" / "link.md").symlink_to(outside)
    engine = MemorySearch(workspace, SearchOptions(extra_paths=(notes,)), today=TODAY)
    paths = {r.path for r in engine.search("番茄").results}
    assert paths == {(notes / "garden.md").as_posix()}


def test_an_identifier_written_longer_than_in_the_note_still_finds_it(search: MemorySearch) -> None:
    assert _top(search, "b7c41d2e9f10")[0] == "memory/2026-05-20.md"  # the note has the short hash
    assert _top(search, "nginx:1.27-alpine@sha256")[0] == "memory/2026-05-20.md"
    assert search.search("zz9-plural-z-alpha").results == []


def _workspace_with(tmp_path: Path, files: dict[str, str]) -> MemorySearch:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return MemorySearch(tmp_path, SearchOptions(), today=TODAY)


def test_a_newer_note_in_the_other_language_supersedes_the_older_one(tmp_path: Path) -> None:
    """Same subject (heading word + identifiers), the fact restated in Chinese: the newer note
    matches fewer of the English query's words, yet it is the current answer."""
    search = _workspace_with(
        tmp_path,
        {
            "memory/2026-03-01.md": "# 2026-03-01\n\n## 09:00 - Mosquitto\n"
            "- mosquitto on nas-02 listens on 1883.\n- Mosquitto retention set to 7 days for now.\n",
            "memory/2026-04-20.md": "# 2026-04-20\n\n## 10:00 - Mosquitto 保留\n"
            "- nas-02 上的 Mosquitto 保留时间从 7 天改成 30 天，磁盘够用。\n",
            "memory/2026-04-21.md": "# 2026-04-21\n\n## 10:00 - Garden\n- Planted basil.\n",
        },
    )
    paths = [r.path for r in search.search("what retention does Mosquitto keep now").results]
    assert paths[:2] == ["memory/2026-04-20.md", "memory/2026-03-01.md"]


def test_a_newer_note_sharing_only_a_word_does_not_jump_ahead(tmp_path: Path) -> None:
    search = _workspace_with(
        tmp_path,
        {
            "memory/2026-03-01.md": "# 2026-03-01\n\n## 09:00 - 证书续期\n- 网站证书到期日 2026-12-01，自动续期。\n",
            "memory/2026-04-20.md": "# 2026-04-20\n\n## 10:00 - SSH 证书\n- 给笔记本签了 SSH 用户证书，有效期 52 周。\n",
        },
    )
    assert search.search("网站证书什么时候到期").results[0].path == "memory/2026-03-01.md"


def test_a_newer_note_that_says_the_value_changed_ranks_first(tmp_path: Path) -> None:
    from .conftest import write_files

    files = {
        "memory/2026-02-01.md": "# 2026-02-01\n\n## 游泳\n- 小雨游泳课 周六上午 9:30, 文体中心 三楼泳池\n",
        "memory/2026-04-01.md": (
            "# 2026-04-01\n\n## 16:10 - 调整\n- 游泳课改到周日下午 3 点, 周六那班人太多\n- 教练说小雨可以学换气了\n\n"
            "## 备份\n- NAS 升到 7.2，升级前先备份了游泳课的照片\n"
        ),
    }
    search = MemorySearch(write_files(tmp_path / "ws", files), SearchOptions(), today=TODAY)
    results = search.search("小雨游泳课几点").results
    assert results[0].path == "memory/2026-04-01.md" and "改到周日" in results[0].snippet
    # A change of something else in the same note (升到 7.2 of the NAS) moves nothing.
    assert [r.path for r in search.search("游泳课照片备份").results][:1] == ["memory/2026-04-01.md"]


def test_question_words_split_a_chinese_query_by_position() -> None:
    from savenow.search.tokenize import query_terms

    terms = {t.term: t.weight for t in query_terms("房租现在多少钱一个月")}
    assert terms["房租"] == 1.0 and terms["钱"] == 0.5
    assert "租现" not in terms and "少钱" not in terms  # seams across a question word
    assert {t.term for t in query_terms("Etsy 的佣金是多少") if t.weight} == {"etsy", "佣金"}


def test_a_word_memory_never_saw_needs_a_second_word_answered(search: MemorySearch) -> None:
    # 护照 is nowhere: the 证书 note's 到期 alone does not answer "when does the passport expire".
    assert search.search("护照什么时候到期").results == []
    # A known word with an unknown one still finds a note that answers two of its words.
    assert search.search("路由器管理端口 Kubernetes").results[0].path == "memory/2026-05-20.md"
    # 几号 / 哪天 are question words: no 号交 seam counts as a word nobody wrote.
    from savenow.search.tokenize import query_terms

    assert {t.term for t in query_terms("房租几号交") if t.weight >= 1} == {"房租"}


def test_a_silent_e_lost_by_the_stemmer_still_matches(tmp_path: Path) -> None:
    from .conftest import write_files

    files = {"memory/2026-05-01.md": "# 2026-05-01\n\n## Keys\n- The signing key is stored in the vault.\n"}
    search = MemorySearch(write_files(tmp_path / "ws", files), SearchOptions(), today=TODAY)
    assert search.search("where do I store the signing key").results  # store ↔ stored (stor)


def test_a_newer_version_of_the_same_thing_ranks_first(tmp_path: Path) -> None:
    from .conftest import write_files

    files = {
        "memory/2026-02-01.md": "# 2026-02-01\n\n## Project setup notes\n- 项目锁定 Godot 4.2.2-stable, no upgrades\n",
        "memory/2026-04-01.md": "# 2026-04-01\n\n## Engine\n- 升级到 Godot 4.3-stable, templates 重下了\n",
    }
    search = MemorySearch(write_files(tmp_path / "ws", files), SearchOptions(), today=TODAY)
    results = search.search("which Godot version is the project on").results
    assert results[0].path == "memory/2026-04-01.md"
