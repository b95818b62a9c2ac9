"""Titles and bullets a person would keep (issue 12, items 3 and 4): one test per failure kind a
blind reader rejected, in both languages."""

from __future__ import annotations

from datetime import date

import pytest

from savenow.extract.heuristic.form import once_each, owner_voice, tidy_bullet
from savenow.extract.heuristic.titles import TitleContext, note_language, note_title, title_faults
from savenow.vocabulary import NoteKind

DAY = date(2026, 5, 15)


def title(bullets: list[str], kinds: set[str], language: str, chat: list[str] | None = None) -> str:
    texts = chat or bullets
    return note_title(bullets, kinds, (), language, TitleContext(texts, texts))


# ----------------------------------------------------------------------------- bullets


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("更正：药房现在是 6152，护士站是 6021。", "药房现在是 6152，护士站是 6021。"),
        ("改为：首重 500g 45 元，续重每 500g 25 元。", "首重 500g 45 元，续重每 500g 25 元。"),
        ("刚记下：单次维修 200 元以下房东承担。", "单次维修 200 元以下房东承担。"),
        ("收到～周三奶奶接，15:40，西门。", "周三奶奶接，15:40，西门。"),
        ("第四个，燃气户号 1029384756。", "燃气户号 1029384756。"),
        (
            "收到～看：Amlodipine 从 5mg 加到 10mg。",
            "Amlodipine 加到 10mg。",
        ),  # the old dose goes (later_values)
        ("补进 matrix 的记录里：coturn 在 `vps-tyo`，端口 3478。", "coturn 在 `vps-tyo`，端口 3478。"),
        (
            "第 2 步，在笔记本上同步配置：`rsync -avz ~/.openclaw/ vps:~/.openclaw/`",
            "在笔记本上同步配置：`rsync -avz ~/.openclaw/ vps:~/.openclaw/`",
        ),
        ("周三就是：奶奶接，15:40，西门。", "周三：奶奶接，15:40，西门。"),
        ("runner-03 这边就是：tag `gpu`，docker executor。", "runner-03：tag `gpu`，docker executor。"),
        ("Wait, the port is 8443, not 8080.", "The port is 8443, not 8080."),
        ("Saved: Declan leads A (07700 914 233).", "Declan leads A (07700 914 233)."),
        (
            "One more thing: backup failures go to the Servers topic.",
            "Backup failures go to the Servers topic.",
        ),
        ("For the record jellyfin is at media-01:8096.", "Jellyfin is at media-01:8096."),
        ("👌 So going forward: Mullvad on the NAS stays off for B2.", "Mullvad on the NAS stays off for B2."),
        ("Deal: `--contimeout 2m` in offsite.sh.", "`--contimeout 2m` in offsite.sh."),
        (
            "I'll note that the passwords are read from `~/.gradle/gradle.properties`.",
            "The passwords are read from `~/.gradle/gradle.properties`.",
        ),
    ],
)
def test_correction_and_bookkeeping_markers_leave_the_bullet(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


def test_a_marker_with_nothing_after_it_stays_as_said() -> None:
    assert tidy_bullet("改成：`X=1`", DAY) == "改成：`X=1`"
    assert tidy_bullet("好的", DAY) == "好的"


@pytest.mark.parametrize(
    ("bullets", "kept"),
    [
        (["以后回复里别用 emoji 了。", "以后回复不用 emoji。"], ["以后回复不用 emoji。"]),
        (
            [
                "finance 命名空间（包括 recon-daily）归郑凯的组，recon 告警先 @郑凯。",
                "finance 命名空间的东西都是郑凯他们组负责的，以后 recon 相关的告警先 @郑凯",
            ],
            ["finance 命名空间（包括 recon-daily）归郑凯的组，recon 告警先 @郑凯。"],
        ),
        (
            [
                "Kids activities go on the Okafor Kids calendar, everything else on Okafor Family.",
                "From now on kids stuff goes on the Okafor Kids calendar, everything else stays on Okafor Family.",
            ],
            ["Kids activities go on the Okafor Kids calendar, everything else on Okafor Family."],
        ),
    ],
)
def test_one_fact_is_said_once_in_a_note(bullets: list[str], kept: list[str]) -> None:
    assert once_each(bullets, [{NoteKind.FUTURE}] * len(bullets)) == kept


def test_a_restatement_with_a_value_of_its_own_stays() -> None:
    bullets = ["Redis 以后只监听 6380。", "Redis 以后只监听 6380，sentinel 在 6381。"]
    assert once_each(bullets, [{NoteKind.FUTURE}] * 2) == ["Redis 以后只监听 6380，sentinel 在 6381。"]
    other = ["Redis 以后只监听 6380，不再用 6379。", "Redis 以后只监听 6380，sentinel 在 6381。"]
    assert once_each(other, [{NoteKind.FUTURE}] * 2) == other  # each holds a value the other lacks


def test_a_cause_and_its_fix_both_stay_however_alike() -> None:
    bullets = ["根因：465 端口配了 `SMTP_SECURITY=starttls`。", "`SMTP_SECURITY=force_tls` + `SMTP_PORT=465`"]
    assert once_each(bullets, [{NoteKind.ROOT_CAUSE}, {NoteKind.FIX}]) == bullets


@pytest.mark.parametrize(
    ("said", "note"),
    [
        (
            "乐乐周三 15:30 放学、你去接；其他工作日 16:40。",
            "乐乐周三 15:30 放学、我去接；其他工作日 16:40。",
        ),
        ("auth key 90 天过期，由你手动轮换。", "auth key 90 天过期，由我手动轮换。"),
        (
            "The pattern you added on `desk` only applies on `desk`.",
            "The pattern I added on `desk` only applies on `desk`.",
        ),
        (
            "Since you replaced `POLL_INTERVAL` with the schedule.",
            "Since I replaced `POLL_INTERVAL` with the schedule.",
        ),
    ],
)
def test_what_the_assistant_told_the_owner_reads_in_the_owners_voice(said: str, note: str) -> None:
    assert owner_voice(said) == note
    assert tidy_bullet(said, DAY, role="assistant") == note


def test_a_line_where_the_assistant_speaks_of_itself_is_not_revoiced() -> None:
    assert owner_voice("这个我记下来，以后要请假我提醒你。") == "这个我记下来，以后要请假我提醒你。"
    assert owner_voice("I'll remind you on Fridays.") == "I'll remind you on Fridays."
    # the user's own "you" is the assistant: only the assistant's lines are revoiced
    assert tidy_bullet("除非你明确要求，不用全局。", DAY) == "除非你明确要求，不用全局。"


# ----------------------------------------------------------------------------- titles


@pytest.mark.parametrize(
    ("heading", "bullets", "language", "fault"),
    [
        ("Saved", ["Declan leads A."], "en", "empty"),
        ("Days rule", ["14 days net by default."], "en", "empty"),
        ("规则", ["CA 不设免运费门槛。"], "zh", "empty"),
        ("Noor's birthday 19 March", ["Noor's birthday 19 March, reminder on 5 March."], "en", "clause"),
        ("Order is", ["The order is: migrate first, then deploy."], "en", "clause"),
        ("美团外卖抽成 18%", ["美团外卖抽成 18%。"], "zh", "clause"),
        ("王师傅说", ["王师傅说：全合成 0W-20。"], "zh", "clause"),
        ("欧元收款走 Wise", ["欧元收款走 Wise，IBAN BE71 9670 4418 2269。"], "zh", "clause"),
        ("房贷利率现", ["房贷利率现在是 3.55%。"], "zh", "cut"),
        ("Smart", ["B2 任务每天 03:00 跑，Smart Recycle 保留策略。"], "zh", "cut"),
        ("Backup rule", ["备份失败发到 Servers topic，不发私聊。"], "zh", "language"),
        ("备份规则", ["Backup failures go to the Servers topic."], "en", "language"),
        ("-p gpu-a40 --gres=gpu", ["-p gpu-a40 --gres=gpu:a40:2"], "en", "command"),
    ],
)
def test_title_faults_name_what_a_reader_rejects(
    heading: str, bullets: list[str], language: str, fault: str
) -> None:
    assert fault in title_faults(heading, bullets, language)


@pytest.mark.parametrize(
    ("heading", "bullets", "language"),
    [
        ("Nginx upload limit", ["client_max_body_size is 200m in files.conf."], "en"),
        ("回复风格偏好", ["以后回复先给结论。"], "zh"),
        ("vps-hk", ["vps-hk 2C4G 香港"], "zh"),  # an identifier is in no language
        ("Hyper Backup", ["Hyper Backup → 新建 → S3 Storage"], "zh"),  # nor is a product's name
        ("Task 2", ["Task 2 先练结构"], "zh"),
    ],
)
def test_good_titles_have_no_fault(heading: str, bullets: list[str], language: str) -> None:
    assert title_faults(heading, bullets, language) == []


def test_a_title_with_a_date_or_amount_keeps_its_noun_phrase() -> None:
    chat = ["Noor's birthday 19 March, reminder on 5 March.", "Noor's birthday, noted."]
    assert (
        title(["Noor's birthday 19 March, reminder on 5 March."], {NoteKind.NOTE}, "en", chat)
        == "Noor's birthday"
    )
    zh_chat = ["美团外卖抽成 18%。", "美团外卖抽成记下了"]
    assert title(["美团外卖抽成 18%。"], {NoteKind.NOTE}, "zh", zh_chat) == "美团外卖抽成"


def test_a_title_cut_inside_a_word_is_made_whole() -> None:
    chat = ["房贷利率现在是 3.55%。", "房贷利率现在 3.55%，记下了"]
    assert title(["房贷利率现在是 3.55%。"], {NoteKind.CHANGE}, "zh", chat) == "房贷利率"
    en_chat = ["B2 runs daily with Smart Recycle retention.", "Smart Recycle it is."]
    made = title(["Smart Recycle keeps the B2 versions."], {NoteKind.NOTE}, "en", en_chat)
    assert "Smart" not in made or "Smart Recycle" in made


def test_a_lowercase_tool_name_over_a_chinese_note_takes_a_noun() -> None:
    bullets = [
        "compose 里 `extra_hosts: host.docker.internal:host-gateway`（Linux 上容器要访问宿主机服务都得这样）"
    ]
    chat = [*bullets, "compose 里加了 extra_hosts"]
    assert title(bullets, {"setup"}, "zh", chat) == "compose 配置"


@pytest.mark.parametrize(
    ("bullets", "conversation", "language"),
    [
        (["备份失败发到 Servers topic，不发私聊。"], "en", "zh"),
        (["PO #LS-2612, delivery before 2027-01-05 to Suzhou."], "zh", "en"),
        (["`PAPERLESS_OCR_LANGUAGES=chi-sim`"], "zh", "zh"),  # a line of code is in no language
    ],
)
def test_a_note_is_titled_in_its_own_language(bullets: list[str], conversation: str, language: str) -> None:
    assert note_language(bullets, conversation) == language


def test_words_that_only_look_like_a_span_from_now_stay_as_written() -> None:
    from savenow.extract.heuristic import form

    for text in ("前两天后端挂了", "康复计划：第三周后开始加量", "疗程第 2 周后复查一次"):
        assert form._ZH_SPAN.search(text) is None, text
    assert form._ZH_SPAN.search("两周后复查") and form._ZH_SPAN.search("三个月以后复诊")
    assert form._EN_SPAN.search("call back in a day or two") is None
    assert form._EN_SPAN.search("renew in 3 months")
