"""Titles: mends of the review of round fourteen's title rounds (items 4–7), each in both languages
where the rule says it in both (the verb scan and the English tokens are English only: their Chinese
test guards the same note said in Chinese)."""

from __future__ import annotations

from savenow.extract.heuristic import titles
from savenow.extract.heuristic.cache import TEXTS
from savenow.extract.heuristic.titles import TitleContext, note_title
from savenow.text.identifiers import identifiers
from savenow.vocabulary import NoteKind


def _title(bullet: str, language: str) -> str:
    return note_title(
        [bullet], {NoteKind.NOTE}, identifiers(bullet), language, TitleContext([bullet], [bullet])
    )


# item 4: "to", "this", "that", "it" before a capitalized name do not make the name a verb


def test_a_name_after_to_is_no_verb_en() -> None:
    bullet = "We moved CI to GitHub Actions; the runner is gh-runner-02."
    assert not titles._said_as_verb("GitHub", [bullet])
    assert not titles._said_as_verb("Lisbon", ["Flight to Lisbon on May 3."])
    assert not titles._said_as_verb("Lisbon", ["Booked that Lisbon hotel."])
    assert _title(bullet, "en") == "GitHub Actions"
    assert titles._said_as_verb("lose", ["I don't want to lose the whaler stuff."])  # still a verb
    assert titles._said_as_verb("says", ["It says 88 mcg."])


def test_a_name_after_to_is_no_verb_zh() -> None:
    assert _title("CI 迁到 GitHub Actions 了，runner 是 gh-runner-02。", "zh") == "GitHub Actions"


# item 5: "X is ID" / "X是ID" names the identifier by X


def test_a_copula_before_an_identifier_names_it_en() -> None:
    assert titles._named_kind("QX7-22", ["The booking code is QX7-22 for the hotel."], "en") == "Booking code"
    assert titles._named_kind("QX7-22", ["Booking code: QX7-22"], "en") == "Booking code"


def test_a_copula_before_an_identifier_names_it_zh() -> None:
    assert titles._named_kind("ZT-5530918", ["中通的月结账号是 ZT-5530918"], "zh") == "中通月结账号"
    assert titles._named_kind("ZT-5530918", ["中通的月结账号 ZT-5530918"], "zh") == "中通月结账号"


# item 6: after a versioned name only a placement verb before 在/到/成/为 is the predicate's (a Chinese
# rule: the English subject reading has no such step)


def test_a_noun_after_a_versioned_name_stays_in_the_topic_zh() -> None:
    assert titles._zh_topic("Node 20 镜像在 Harbor 上") == "Node 20 镜像"
    assert titles._zh_topic("群晖 DS224+ 固定在 192.168.1.20") == "群晖 DS224+"
    assert titles._zh_topic("Postgres 16 部署到 db-1 上") == "Postgres 16"


# item 7: the English tokens are remembered in the toolkit's one text cache


def test_english_tokens_use_the_one_text_cache() -> None:
    assert titles._en_tokens.cache_parameters()["maxsize"] == TEXTS
    assert not hasattr(titles, "lru_cache")
    assert titles._en_tokens("It says 88 mcg") == ("It", "says", "88", "mcg")
    assert titles._en_tokens("Node 20 镜像") == ("Node", "20", "镜像")
