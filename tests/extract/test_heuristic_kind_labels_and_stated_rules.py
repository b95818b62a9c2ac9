"""Issue 12, titles and bullets a blind reader keeps: one test per failure kind, in both languages.

Titles: the subject, never the kind of note ("X rule", "规则", "… fix", "修复"); "reply style" only
for the form of the assistant's replies; a Latin term counted as a whole word. Bullets: the rule
stated, not the chat's imperative ("以后 …", "千万别 …", "from now on"), without openers ("还有个事",
"就是"), done-reports ("加了") or clauses that only point back ("以后都用这个"), and one wording of
a fact once.
"""

from __future__ import annotations

import pytest

from savenow.extract.heuristic.clauses import clean_zh_statement
from savenow.extract.heuristic.form import once_each, tidy_bullet
from savenow.extract.heuristic.titles import TitleContext, note_title
from savenow.vocabulary import NoteKind

KIND_WORDS = ("rule", "fix", "issue", "decision", "preference", "setup", "change")
ZH_KIND_WORDS = ("规则", "修复", "问题", "决定", "偏好", "配置", "变更")


def title(bullets: list[str], kinds: set[str], language: str, chat: list[str] | None = None) -> str:
    texts = chat or bullets
    return note_title(bullets, kinds, (), language, TitleContext(texts, texts))


# --------------------------------------------------------------------------- titles: no kind label


@pytest.mark.parametrize(
    ("bullets", "kinds", "subject"),
    [
        (
            ["Send Fenwick invoices to accounts@fenwick.example from now on."],
            {NoteKind.FUTURE},
            "Fenwick invoices",
        ),
        (
            ["Always run `pg_dump` on db-3 before an upgrade; db-3 keeps the only replica."],
            {NoteKind.FUTURE},
            "pg_dump",
        ),
        (["Fix: restart `status-page` after a config change on status-page."], {NoteKind.FIX}, "status-page"),
    ],
)
def test_an_english_title_is_the_subject_without_a_kind_label(
    bullets: list[str], kinds: set[str], subject: str
) -> None:
    got = title(bullets, kinds, "en", chat=bullets * 2)
    assert subject.casefold() in got.casefold()
    assert not any(got.casefold().endswith(" " + word) for word in KIND_WORDS), got
    assert not got.casefold().startswith("send ")  # an instruction's verb is no part of its subject


@pytest.mark.parametrize(
    ("bullets", "kinds", "subject"),
    [
        (["家务类提醒一律发到群 `-1002215567730` 的家务 topic，不发私聊。"], {NoteKind.FUTURE}, "家务"),
        (["燃气户号 3301-8821 只在燃气公司 App 里缴费。"], {NoteKind.FUTURE}, "燃气户号"),
    ],
)
def test_a_chinese_title_is_the_subject_without_a_kind_label(
    bullets: list[str], kinds: set[str], subject: str
) -> None:
    got = title(bullets, kinds, "zh", chat=bullets * 2)
    assert subject in got
    assert not got.endswith(ZH_KIND_WORDS), got


# --------------------------------------------------------------------------- titles: reply style


@pytest.mark.parametrize(
    ("bullet", "language", "expected"),
    [
        ("回复不用 emoji。", "zh", True),
        ("排查问题先给结论，再给命令，别一上来一大段分析。", "zh", True),
        ("周报总结每周五发到群里，抄送组长。", "zh", False),
        ("When I ask you to summarise a PR, start with the risks, then the files.", "en", True),
        ("The weekly summary goes to #team-leads every Friday.", "en", False),
    ],
)
def test_reply_style_only_for_the_form_of_the_assistants_replies(
    bullet: str, language: str, expected: bool
) -> None:
    got = title([bullet], {NoteKind.FUTURE}, language, chat=[bullet, bullet])
    assert (got in ("回复风格偏好", "Reply style")) is expected, got


def test_a_latin_term_is_counted_as_a_whole_word() -> None:
    context = TitleContext(
        ["Whitelist it in the blocklist admin page"], ["Whitelist it in the blocklist admin page"]
    )
    assert context.uses("list") == 0  # "whitelist" and "blocklist" do not say "list"
    assert context.uses("admin") == 1
    assert (
        TitleContext(["门慢卡办了，门慢卡编号"], ["门慢卡办了，门慢卡编号"]).uses("门慢") == 2
    )  # Chinese has no spaces


# --------------------------------------------------------------------------- bullets: the rule stated


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("以后回复不用 emoji。", "回复不用 emoji。"),
        (
            "以后早报每天最多 2 条少数派，剩下的名额给其他源。",
            "早报每天最多 2 条少数派，剩下的名额给其他源。",
        ),
        ("rclone.conf 千万别贴出来 你知道的", "rclone.conf 别贴出来。"),
        # "以后是…" needs its 以后, and "连上以后" is "after connecting": both stay
        ("以后是每周四 17:00，少年宫三楼。", "以后是每周四 17:00，少年宫三楼。"),
        ("连上以后执行 `PRAGMA busy_timeout=5000`", "连上以后执行 `PRAGMA busy_timeout=5000`"),
    ],
)
def test_a_chinese_rule_is_stated_not_said(said: str, stated: str) -> None:
    assert clean_zh_statement(said) == stated


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        (
            "Send Fenwick invoices to accounts@fenwick.example from now on.",
            "Send Fenwick invoices to accounts@fenwick.example.",
        ),
        ("From now on, compose snippets only, no `docker run`.", "Compose snippets only, no `docker run`."),
        ("Use harrow-sunday-2 from now on, and lobby always on", "Use harrow-sunday-2, and lobby always on"),
        ("Going forward, deploys go through Argo.", "Deploys go through Argo."),
        ("Keep `--from-now-on` as it is from now on.", "Keep `--from-now-on` as it is."),  # never inside code
    ],
)
def test_an_english_rule_is_stated_without_from_now_on(said: str, stated: str) -> None:
    assert tidy_bullet(said) == stated


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("还有个事，包装盒换成 12x8x5 的牛皮纸盒了，以后都用这个。", "包装盒换成 12x8x5 的牛皮纸盒了。"),
        ("就是周二晚上 speaking + 周六上午 10 点 writing。", "周二晚上 speaking + 周六上午 10 点 writing。"),
        ("加了，只允许 yuki@example.dev", "只允许 yuki@example.dev"),
        ("发货还是中通 每天下午 16:00 前付款当天发 这个不变", "发货还是中通，每天下午 16:00 前付款当天发。"),
        ("门慢卡已经办了，编号 MB330106882 以后开药拿这个。", "门慢卡已经办了，编号 MB330106882。"),
    ],
)
def test_openers_done_reports_and_pointing_back_leave_the_fact(said: str, stated: str) -> None:
    assert clean_zh_statement(said) == stated


def test_a_bare_pointing_back_sentence_is_left_as_it_is() -> None:
    assert clean_zh_statement("以后都按这个来") == "以后都按这个来"  # nothing else to state: never emptied


@pytest.mark.parametrize(
    ("bullets", "kept"),
    [
        (["回复里别用 emoji 了。", "回复不用 emoji。"], ["回复不用 emoji。"]),
        (["No emojis in replies please", "No emojis in replies"], ["No emojis in replies"]),
        (
            ["Redis 端口 6380。", "Redis 端口 6379。"],
            ["Redis 端口 6380。", "Redis 端口 6379。"],
        ),  # values differ
        (
            [
                "早报每天最多 2 条少数派，剩下的名额给其他源。",
                "早报里少数派最多放 2 条，其他名额留给别的源。",
            ],
            ["早报每天最多 2 条少数派，剩下的名额给其他源。"],
        ),  # the same values said back in other words
        (
            ["Backups run at 02:00 on nas-01 and go to B2.", "Scrub runs at 02:00 on nas-02 monthly."],
            ["Backups run at 02:00 on nas-01 and go to B2.", "Scrub runs at 02:00 on nas-02 monthly."],
        ),  # a shared time alone makes no restatement
    ],
)
def test_a_short_wording_held_whole_by_another_is_said_once(bullets: list[str], kept: list[str]) -> None:
    assert once_each(bullets, [set() for _ in bullets]) == kept


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        (
            "That matches what we saved earlier: privacy mode has to stay disabled via `/setprivacy`.",
            "Privacy mode has to stay disabled via `/setprivacy`.",
        ),
        ("以她最新这条为准：每周六 16:00-16:45。", "每周六 16:00-16:45。"),
        ("我查到的是：备份每天 03:00 跑，保留 7 天。", "备份每天 03:00 跑，保留 7 天。"),
        # kept: a bare command needs its lead-in, a label or a name is the note's, "那周三" is no deixis
        (
            "I need to create it on the primary first: `SELECT 1;`",
            "I need to create it on the primary first: `SELECT 1;`",
        ),
        (
            "Cause: the upload location block sets its own limit.",
            "Cause: the upload location block sets its own limit.",
        ),
        (
            "我在 Firefly 里建一条规则：规则组「自动分类」，动作「设置分类」",
            "我在 Firefly 里建一条规则：规则组「自动分类」，动作「设置分类」",
        ),
        ("那周三就是：奶奶接，15:40，西门。", "周三：奶奶接，15:40，西门。"),
    ],
)
def test_a_lead_in_that_only_speaks_of_the_chat_goes(said: str, stated: str) -> None:
    assert tidy_bullet(said) == stated


def test_a_latin_word_over_a_chinese_note_takes_the_chinese_word_the_note_says_it_with() -> None:
    bullets = ["这个报错常见原因是 biber 的缓存坏了。", "运行 `biber --cache` 看看缓存目录，把它整个删掉。"]
    chat = [*bullets, "biber 又报错了", "biber 跑完了", "biber 好了"]
    assert title(bullets, {NoteKind.ROOT_CAUSE, NoteKind.FIX}, "zh", chat=chat) == "biber 缓存"


@pytest.mark.parametrize(
    ("bullet", "language"),
    [
        ("只允许 yuki@example.dev 登录，只允许这个邮箱。", "zh"),
        ("不发私聊，不发私聊的提醒都进群。", "zh"),
    ],
)
def test_a_chinese_title_never_opens_with_an_adverb(bullet: str, language: str) -> None:
    got = title([bullet], {NoteKind.FUTURE}, language, chat=[bullet, bullet])
    assert not got.startswith(("只", "不")), got


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("这个报错常见原因是 biber 的缓存坏了。", "报错常见原因是 biber 的缓存坏了。"),
        (
            "这类 BME280 模块地址是 `0x76`，ESPHome 默认按 `0x77` 找",
            "BME280 模块地址是 `0x76`，ESPHome 默认按 `0x77` 找。",
        ),
        (
            "新封面图放在 `static/covers/`，这个前缀没有匿名策略",
            "新封面图放在 `static/covers/`，该前缀没有匿名策略。",
        ),
        ("这个是对的", "这个是对的"),  # before a verb the demonstrative is the subject: left alone
    ],
)
def test_a_demonstrative_pointing_into_the_chat_is_written_out(said: str, stated: str) -> None:
    assert clean_zh_statement(said) == stated


def test_a_rule_announcement_is_a_lead_in() -> None:
    said = "A simple rule: always check App bundle explorer for the highest code before bumping."
    assert tidy_bullet(said) == "Always check App bundle explorer for the highest code before bumping."
    assert tidy_bullet("Rule: no deploys on Friday.") == "Rule: no deploys on Friday."  # a label a note keeps


def test_a_name_written_in_code_keeps_its_case_in_the_title() -> None:
    bullets = ["`ffmpeg` falls back to software when `ffmpeg` cannot open /dev/dri/renderD128."]
    assert title(bullets, {NoteKind.ROOT_CAUSE}, "en", chat=bullets * 3) != "Ffmpeg"  # never a made-up word
