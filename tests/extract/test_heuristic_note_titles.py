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


@pytest.mark.parametrize(
    ("bullet", "kinds", "language"),
    [
        ("备份统一在凌晨 3 点跑，不在白天跑。", {NoteKind.FUTURE}, "zh"),
        ("Backups run before 06:30, never during office hours.", {NoteKind.FUTURE}, "en"),
        ("根因：轮换 token 时只更新了 `OPENCLAW_GATEWAY_TOKEN`。", {NoteKind.ROOT_CAUSE}, "zh"),
    ],
)
def test_a_title_carries_no_colon_kind_label(bullet: str, kinds: set[str], language: str) -> None:
    made = title([bullet], kinds, language, [bullet, bullet])
    assert made and ":" not in made and "：" not in made


@pytest.mark.parametrize(
    ("bullet", "language", "expected"),
    [
        ("以后回复先一句话给结论，需要细节再问。", "zh", "回复风格偏好"),
        ("No more emojis in replies.", "en", "Reply style"),
    ],
)
def test_a_rule_on_the_assistants_replies_is_a_reply_style(bullet: str, language: str, expected: str) -> None:
    assert title([bullet], {NoteKind.PREFERENCE}, language) == expected


def test_a_rule_about_something_else_that_mentions_replies_is_not_a_reply_style() -> None:
    made = title(
        ["密码一律私聊发，不在群里回复。"], {NoteKind.PREFERENCE}, "zh", ["密码一律私聊发", "密码一律私聊发"]
    )
    assert "回复" not in made and "密码" in made


def test_a_change_of_one_kind_of_value_names_it() -> None:
    bullets = ["Redis 端口从 6379 改成 6380。"]
    chat = ["redis 要换端口", "Redis 端口从 6379 改成 6380。", "redis 好了"]
    assert title(bullets, {NoteKind.CHANGE}, "zh", chat).startswith("Redis 端口")


def test_an_instruction_is_titled_by_its_object_never_by_its_verb() -> None:
    bullet = "Announce every prod deploy in #releases with the tag."
    made = title([bullet], {NoteKind.FUTURE}, "en", [bullet, "every prod deploy gets announced"])
    assert not made.startswith("Announce") and "deploy" in made.casefold()


def test_times_and_counts_are_never_the_subject() -> None:
    bullet = "以后是每周四 17:00，少年宫三楼。"
    made = title([bullet], {NoteKind.FUTURE}, "zh", [bullet, "周四 17:00 少年宫三楼", "改到周四了"])
    assert "周四" not in made and "三" not in made


def test_an_opening_phrase_said_once_is_no_subject() -> None:
    bullet = "删掉 unit 里那一行，以后只认 openclaw.json。"
    chat = [bullet, "openclaw.json 里的 token 对了", "openclaw.json 生效"]
    assert "删掉" not in title([bullet], {NoteKind.FIX}, "zh", chat)
