"""Titles that name the subject (issue 12): no pronoun, no empty label, no chat fragment, no contradiction."""

from __future__ import annotations

import pytest

from savenow.extract.heuristic.titles import TitleContext, note_title
from savenow.vocabulary import NoteKind

PRONOUNS = {"her", "him", "his", "she", "he", "they", "them", "you", "我", "你", "他", "她"}


def title(bullets: list[str], kinds: set[str], language: str = "en", chat: list[str] | None = None) -> str:
    texts = chat or bullets
    return note_title(bullets, kinds, (), language, TitleContext(texts, texts))


def words(text: str) -> set[str]:
    return {w.strip(":：").casefold() for w in text.split()} | set(text)


@pytest.mark.parametrize(
    ("bullet", "language", "owned"),
    [
        ("Alice owns billing-svc; billing DB schema changes need her OK first.", "en", "billing-svc"),
        ("Priya owns the org account, limit increases go through her", "en", "org account"),
        ("举报由周宁负责审核，有新举报就在群里 @周宁。", "zh", "举报"),
        ("`hm-common` 由 Wen Jie 维护，有问题找他。", "zh", "hm-common"),
    ],
)
def test_an_owner_title_names_what_is_owned_never_a_pronoun(bullet: str, language: str, owned: str) -> None:
    made = title([bullet], {NoteKind.OWNER}, language)
    assert owned in made
    assert not (words(made) & PRONOUNS)


@pytest.mark.parametrize(
    ("bullet", "language", "expected"),
    [
        ("Groceries: Ocado, standing slot Sunday 18:00–19:00.", "en", "Groceries"),
        ("Rent is split by room size: me 40%, Oskar 30%, Maeve 30%.", "en", "Rent"),
        ("Oat flat white, extra shot, no sugar, from Ferro on Camden Rd.", "en", "Oat flat white"),
        ("For the record jellyfin is at media-01:8096.", "en", "Jellyfin"),
        ("Gitea 在 `git.hollow.lan:3000`，act_runner 跑在 `ci-box-1`。", "zh", "Gitea"),
    ],
)
def test_a_plain_fact_is_titled_by_the_subject_it_opens_with(
    bullet: str, language: str, expected: str
) -> None:
    assert title([bullet], {NoteKind.NOTE}, language) == expected


@pytest.mark.parametrize(
    ("bullet", "language"),
    [
        ("`nas-01` 上 ZFS pool `tank`，4 盘 raidz2。", "zh"),
        ("Signing: the distribution cert is in a separate keychain, ci-signing.keychain-db.", "en"),
        ("10:00 前不排会议；周五下午是 deep work 时间。", "zh"),
    ],
)
def test_no_title_ends_in_an_empty_label(bullet: str, language: str) -> None:
    made = title([bullet], {NoteKind.NOTE}, language)
    assert made and not made.endswith(("要点", "notes", "Notes", ": ", "：")) and made != "10"


def test_a_title_never_takes_a_fragment_that_tells_someone_what_to_do() -> None:
    made = title(
        ["应该装到 venv 里：`sudo -u tgbot /opt/tgbot/.venv/bin/pip install -r requirements.txt`"],
        {"setup"},
        "zh",
    )
    assert "应该" not in made


def test_a_title_never_says_what_its_bullet_denies() -> None:
    bullet = "周报统一发到群里，不发邮件。"
    chat = ["周报以后怎么发？", "周报统一发到群里，不发邮件。", "邮件太多了，周报不发邮件"]
    made = title([bullet], {NoteKind.FUTURE}, "zh", chat)
    assert "邮件" not in made and "周报" in made
    made_en = title(
        ["Deploy notices go to the ops topic, never Slack."],
        {NoteKind.FUTURE},
        "en",
        ["Slack Slack Slack deploy notices"],
    )
    assert "Slack" not in made_en
