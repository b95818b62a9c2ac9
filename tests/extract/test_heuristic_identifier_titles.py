"""Titles that name what a note is about, not a bare identifier, a cut path, an option's name or a
verb (issue 12, round fourteen: the kinds blind readers rejected most after a single vague word).
Each rule in both languages where both say it."""

from __future__ import annotations

import re

import pytest

from savenow.extract.heuristic import titles
from savenow.extract.heuristic.titles import TitleContext, note_title
from savenow.vocabulary import NoteKind


@pytest.mark.parametrize(
    ("identifier", "bullet", "language", "heading"),
    [
        ("ZT-5530918", "中通的月结账号 ZT-5530918", "zh", "中通月结账号"),
        ("PA-88213-SCH", "保单号：PA-88213-SCH，医疗额 30 万。", "zh", "保单号"),
        ("NJ-88Q2TL", "Ticket ref NJ-88Q2TL", "en", "Ticket ref"),
        ("u398812", "备份用 restic 到 Storage Box u398812", "zh", "Storage Box"),
        ("TP409218773", "TAP Miles&Go TP409218773.", "en", "TAP Miles&Go"),
    ],
)
def test_a_bare_identifier_is_named_by_the_words_before_it(
    identifier: str, bullet: str, language: str, heading: str
) -> None:
    assert titles._named_kind(identifier, [bullet], language) == heading


@pytest.mark.parametrize(
    ("identifier", "bullet", "language"),
    [
        (
            "tidewatch-worker",
            "改完 .env 之后 `systemctl restart tidewatch-worker`。",
            "zh",
        ),  # a command's words
        ("MM-DD", "日期一律写 YYYY-MM-DD。", "zh"),  # the same token goes on before it
        ("srv-1", "那个规则来源限制 srv-1 这个好。", "zh"),  # the chat pointing
        ("www-data", "容器里会以 www-data 跑。", "zh"),  # the sentence around it
        ("PO-88213", "Every Brightwater invoice carries PO-88213.", "en"),  # a verb before it
        ("v1.8.1", "Starting v1.8.1 the flag is gone.", "en"),
        ("status.example.dev", "Hostname status.example.dev", "en"),  # one word opening the line
        ("4417", "Account 4417", "en"),  # a number alone is no identifier to rename
    ],
)
def test_an_identifier_without_words_naming_it_stands(identifier: str, bullet: str, language: str) -> None:
    assert titles._named_kind(identifier, [bullet], language) == identifier


def test_a_title_is_never_a_path_cut_at_its_first_slash() -> None:
    bullet = "`chown -R ci:ci /srv/actions-runner`，用 `ci` 用户跑 `./svc.sh install ci`。"
    context = TitleContext([bullet], [bullet, "runner 装在 /srv/actions-runner 下"])
    assert "srv/" not in note_title([bullet], {NoteKind.NOTE}, (), "zh", context)
    match = re.search(r"[A-Za-z][\w./-]*", "CI/CD runs on push")
    assert match is not None and not titles._in_a_path(match, "CI/CD runs on push")  # words, not a path


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("`restic forget --keep-daily 7 --keep-weekly 4 --prune`。", "zh"),
        ("`OnCalendar=*-*-* 03:30:00` in `restic-backup.timer`.", "en"),
    ],
)
def test_a_day_word_inside_a_command_is_no_schedule(text: str, language: str) -> None:
    assert titles._facet(text, language) == ""


@pytest.mark.parametrize(
    ("text", "language", "facet"),
    [("游泳课每周六 10:00。", "zh", "时间"), ("Backups run daily at 03:00.", "en", "schedule")],
)
def test_a_schedule_said_in_words_is_still_one(text: str, language: str, facet: str) -> None:
    assert titles._facet(text, language) == facet


@pytest.mark.parametrize(
    ("word", "bullets", "verb"),
    [
        ("Says", ["It says 88 mcg."], True),
        ("Lose", ["I can't lose the whaler stuff."], True),
        ("Moving", ["Moving the send to Thursday 7am."], True),
        ("Rent", ["Rent is split by room."], False),
        ("Deps", ["Python deps are cached."], False),
    ],
)
def test_a_word_the_note_says_as_a_verb_is_no_heading(word: str, bullets: list[str], verb: bool) -> None:
    assert titles._said_as_verb(word, bullets) is verb


@pytest.mark.parametrize(
    ("bullet", "topic"),
    [
        ("群晖 DS224+ 固定在 192.168.31.20。", "群晖 DS224+"),  # after a model name, 固定 is the verb
        ("GPU 预约在飞书表格，每人最多 2 卡。", "GPU 预约"),  # after a plain name it may be a noun
    ],
)
def test_the_verb_before_a_place_word_is_no_part_of_the_topic(bullet: str, topic: str) -> None:
    assert titles._zh_topic(bullet) == topic


@pytest.mark.parametrize(
    ("heading", "bullet", "language"),
    [
        ("Bought a new lens", "Bought a new lens.", "en"),  # a verb and its object
        ("Add an alert rule", "Add an alert rule for the disk.", "en"),
        ("葡萄牙菜海鲜很多", "葡萄牙菜海鲜很多，点菜前说一声。", "zh"),  # an adjective's predicate
        ("以 100 为准", "以 100 为准。", "zh"),
        ("backup-1 继续备数据库", "backup-1 继续备数据库，backup-2 备照片。", "zh"),
    ],
)
def test_a_clause_is_no_title(heading: str, bullet: str, language: str) -> None:
    assert "clause" in titles.title_faults(heading, [bullet], language)


@pytest.mark.parametrize(
    ("heading", "bullet", "language"),
    [
        ("Owner of the repo", "Maya owns the repo.", "en"),  # "of the": a noun phrase
        ("Aisle seat", "I always want an aisle seat.", "en"),
        ("海鲜过敏", "海鲜过敏，点菜前说一声。", "zh"),
    ],
)
def test_a_noun_phrase_is_no_clause(heading: str, bullet: str, language: str) -> None:
    assert "clause" not in titles.title_faults(heading, [bullet], language)


def test_an_ing_verb_opening_a_bullet_is_no_term_of_the_title() -> None:
    bullets = ["Bought a new lens.", "Nikkor Z 35mm f/1.4", "Replacing the 35 1.8."]
    context = TitleContext(bullets, [*bullets, "Replacing the 35 1.8 with the f/1.4"])
    assert "Replacing" not in note_title(bullets, {NoteKind.NOTE}, (), "en", context)
