"""The parsed concept thesaurus is kept across processes (search/expand.py ``_thesaurus``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from savenow.search import expand
from savenow.text import concepts

TERMS = ["wife", "网关", "water heater", "证书", "lights", "nothing-like-this"]


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "savenow" / "concepts"


def _load() -> concepts.Thesaurus:
    return expand._thesaurus.__wrapped__()  # type: ignore[attr-defined, no-any-return]


def test_the_cached_thesaurus_answers_like_the_parsed_one(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A toolkit file edited moments ago (a fresh clone, an edit) is not trusted yet: no window here.
    monkeypatch.setattr(expand, "_RACY_NS", 0)
    parsed = concepts.thesaurus()
    assert parsed.concepts  # built on first use, as any earlier lookup in the process may have done
    first = _load()
    assert len(list(cache_home.glob("*.marshal"))) == 1

    def no_parsing() -> concepts.Thesaurus:
        raise AssertionError("parsed again although a cached copy exists")

    monkeypatch.setattr(concepts, "thesaurus", no_parsing)
    cached = _load()
    assert cached is not parsed and first is parsed
    for term in TERMS:
        assert cached.related_terms(term) == parsed.related_terms(term)
        assert cached.concepts_of(term) == parsed.concepts_of(term)
    assert cached.concepts_in("家里的热水器坏了, the router too") == parsed.concepts_in(
        "家里的热水器坏了, the router too"
    )


def test_an_unreadable_cache_file_is_parsed_again(cache_home: Path) -> None:
    key, _trusted = expand._key(Path(concepts.__file__).parent)
    cache_home.mkdir(parents=True)
    (cache_home / f"{key}.marshal").write_bytes(b"not marshal data")
    assert _load().related_terms("wife") == concepts.thesaurus().related_terms("wife")


def test_any_change_to_the_text_toolkit_is_a_new_key(tmp_path: Path) -> None:
    folder = tmp_path / "text"
    folder.mkdir()
    (folder / "concepts.txt").write_text("wife\twife|老婆\n", encoding="utf-8")
    (folder / "normalize.py").write_text("x = 1\n", encoding="utf-8")
    old = 10**18  # 2001: not racy
    for name in ("concepts.txt", "normalize.py"):
        os.utime(folder / name, ns=(old, old))
    first, trusted = expand._key(folder)
    assert first is not None
    assert not trusted  # utime set the ctime to now: too recent to store
    with open(folder / "normalize.py", "a", encoding="utf-8") as handle:
        handle.write("y = 2\n")
    os.utime(folder / "normalize.py", ns=(old, old))
    assert expand._key(folder)[0] != first
    (folder / "roles.py").write_text("", encoding="utf-8")
    assert expand._key(folder)[0] not in (None, first)


def test_a_cache_folder_that_cannot_be_written_only_costs_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file: no folder can be made in it
    assert _load().related_terms("wife") == concepts.thesaurus().related_terms("wife")


def test_storing_a_copy_drops_the_copies_nobody_wrote_for_a_week(tmp_path: Path) -> None:
    folder = tmp_path / "concepts"
    folder.mkdir()
    old, recent = folder / "old.marshal", folder / "recent.marshal"
    for path in (old, recent):
        path.write_bytes(b"x")
    week_ago = time.time() - expand.STALE_CACHE_S - 60
    os.utime(old, (week_ago, week_ago))
    expand._store(folder / "new.marshal", b"data")
    assert sorted(p.name for p in folder.glob("*.marshal")) == ["new.marshal", "recent.marshal"]
