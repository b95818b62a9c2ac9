"""Titles and bullets a blind reader keeps, round twelve (issue 12 items 3-4, branch t12t): one test
per failure kind the reader named — a unit or weekday as the title, a measure word cut from its
count, a field word alone, an identifier's case changed by sentence case — in both languages."""

from __future__ import annotations

from datetime import date

from savenow.extract.heuristic.form import tidy_bullet
from savenow.extract.heuristic.titles import TitleContext, note_title, title_faults
from savenow.vocabulary import NoteKind

DAY = date(2026, 5, 15)


def title(bullets: list[str], kinds: set[str], language: str, chat: list[str] | None = None) -> str:
    texts = chat or bullets
    return note_title(bullets, kinds, (), language, TitleContext(texts, texts))


# ----------------------------------------------------------------------------- titles


def test_a_measure_word_cut_from_its_count_is_no_title() -> None:
    bullets = ["2 号机跑 v3.4.1 做灰度，1 号机保持 v3.4.0。"]
    assert "cut" in title_faults("号机", bullets, "zh")
    assert "cut" in title_faults("号机地址", ["2 号机上 8443 被占了，用 9443"], "zh")
    assert title(bullets, {NoteKind.NOTE}, "zh") != "号机"
    assert "cut" not in title_faults("路由器地址", ["备 192.168.50.3", "路由器 DHCP 下发的 DNS"], "zh")


def test_a_weekday_alone_gives_way_to_the_notes_terms() -> None:
    chat = ["Flour delivery from Ridgeway", "Wednesdays before 07:00, flour delivery by Ridgeway."]
    got = title(["Wednesdays before 07:00, flour delivery by Ridgeway."], {NoteKind.NOTE}, "en", chat)
    assert got.casefold() not in ("wednesdays", "wednesdays before")


def test_a_field_word_takes_the_name_it_belongs_to() -> None:
    en_chat = ["CI logs are long", "When you pull CI logs for me, only show the failing step."]
    bullet = "When you pull CI logs for me, only show the failing step."
    assert title([bullet], {NoteKind.PREFERENCE}, "en", en_chat) == "CI logs"
    zh_chat = ["书库在 NAS 上", "书库备份每天 4 点跑", "书库备份用 rsync"]
    assert title(["备份：书库备份每天 04:00 rsync 到 /mnt/nas/books-backup/。"], {NoteKind.NOTE}, "zh", zh_chat) == "书库备份"


def test_a_field_word_with_no_owner_in_the_note_stays_plain() -> None:
    # no name before it: a guessed owner from elsewhere in the chat would be the wrong subject
    chat = ["Splitwise group for the flat", "Daily 07:00 DM for the tablet", "tablet reminder"]
    assert "Splitwise" not in title(["Tablet: daily 07:00 DM, no drug name."], {NoteKind.NOTE}, "en", chat)


# ----------------------------------------------------------------------------- bullets


def test_an_identifier_opening_a_bullet_keeps_the_chats_case() -> None:
    chat = "cut v1.8.1 from b77d03f; db-lax-1 is on 16; Pi-hole moved"
    assert tidy_bullet("V1.8.1 → b77d03f.", DAY, chat=chat) == "v1.8.1 → b77d03f."
    assert tidy_bullet("Db-lax-1 is now on PostgreSQL 16.", DAY, chat=chat).startswith("db-lax-1")
    assert tidy_bullet("Pi-hole moved to 10.0.20.3.", DAY, chat=chat).startswith("Pi-hole")
    assert tidy_bullet("Down/outage alerts → priority 8.", DAY, chat="down/outage alerts").startswith("Down")
