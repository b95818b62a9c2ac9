"""Bullets that state the fact on their own (issue 12): no lead-ins, no relative dates, never "…"."""

from __future__ import annotations

from datetime import date

import pytest

from savenow.extract.heuristic.form import message_date, tidy_bullet
from savenow.extract.heuristic.statements import _clip
from savenow.models import ChatMessage
from tests.extract.support import extract, saved

DAY = date(2026, 5, 15)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "There it is: the `location /upload` block sets its own limit.",
            "The `location /upload` block sets its own limit.",
        ),
        ("That's the rule: originals are only deleted on the nas.", "Originals are only deleted on the nas."),
        (
            "Make that the rule: no force-unlock before the run is finished.",
            "No force-unlock before the run is finished.",
        ),
        ("Actually, kids' events go on the Kids calendar.", "Kids' events go on the Kids calendar."),
        ("Sorry, the port is 8443, not 8080.", "The port is 8443, not 8080."),
        ("原因找到了：ollama 默认只监听 `127.0.0.1:11434`。", "ollama 默认只监听 `127.0.0.1:11434`。"),
        ("规则就是：每个进程只建一次 engine。", "每个进程只建一次 engine。"),
        ("那就对了：`SMTP_PORT=465` 要配 `force_tls`。", "`SMTP_PORT=465` 要配 `force_tls`。"),
        ("抱歉，端口是 8443，不是 8080。", "端口是 8443，不是 8080。"),
        ("确认根因：465 端口配了 starttls。", "根因：465 端口配了 starttls。"),
    ],
)
def test_chat_lead_ins_are_dropped_in_both_languages(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    "label",
    [
        "Fix: raise `client_max_body_size` to 200m.",
        "根因：`static/covers/` 前缀没有匿名策略。",
        "Rule: deploys only on weekdays.",
    ],
)
def test_labels_a_note_keeps_stay(label: str) -> None:
    assert tidy_bullet(label, DAY) == label


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "The router was replaced yesterday, new IP 10.0.0.1.",
            "The router was replaced on 2026-05-14, new IP 10.0.0.1.",
        ),
        ("Renewal is due since tomorrow.", "Renewal is due since 2026-05-16."),
        ("昨天换了新路由器，IP 是 10.0.0.1。", "2026-05-14 换了新路由器，IP 是 10.0.0.1。"),
        ("Kenji 上周接手了 etl-pipeline。", "Kenji 接手了 etl-pipeline。"),
        ("Kenji took over etl-pipeline last week.", "Kenji took over etl-pipeline."),
    ],
)
def test_relative_dates_are_resolved_or_dropped(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


def test_without_a_date_day_words_stay_and_week_words_go() -> None:
    assert (
        tidy_bullet("Kenji 上周接手了 etl-pipeline，昨天开始值班。")
        == "Kenji 接手了 etl-pipeline，昨天开始值班。"
    )
    assert message_date("2026-05-15T23:10:00Z") == DAY and message_date(None) is None


def test_a_long_bullet_is_never_cut_with_an_ellipsis() -> None:
    one_clause = "x" * 400
    assert _clip(one_clause) == one_clause
    clauses = "; ".join(f"step {n} runs `job-{n}` on host-{n}" for n in range(20))
    clipped = _clip(clauses)
    assert "…" not in clipped and clauses.startswith(clipped) and len(clipped) <= 320


def test_extracted_bullets_carry_no_lead_in_and_no_relative_date() -> None:
    messages = [
        ChatMessage("user", "uploads over 30 MB fail with 413 on files.example.org", "2026-05-15T09:00:00Z"),
        ChatMessage(
            "assistant",
            "There it is: the `location /upload` block in files.conf sets `client_max_body_size 20m`, overriding the server's 50m.",
            "2026-05-15T09:01:00Z",
        ),
        ChatMessage(
            "assistant",
            "Fix: raise `client_max_body_size` to 200m in `location /upload` and reload nginx.",
            "2026-05-15T09:02:00Z",
        ),
        ChatMessage(
            "user",
            "works now. and yesterday I moved files.example.org to edge-2, for the notes",
            "2026-05-15T09:03:00Z",
        ),
        ChatMessage(
            "assistant", "Noted: files.example.org moved to edge-2 yesterday.", "2026-05-15T09:04:00Z"
        ),
    ]
    bullets = [b for e in saved(extract(messages)) for b in e.bullets]
    assert bullets and not any(b.startswith("There it is") for b in bullets)
    assert not any("yesterday" in b for b in bullets)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("你最近 emoji 有点多, 以后回复里别用 emoji 了, 看着很乱", "回复里别用 emoji 了。"),
        (
            "以后排查问题你先给结论，再给命令，别一上来一大段分析，手机上看太累了",
            "排查问题先给结论，再给命令，别一上来一大段分析。",
        ),
        ("以后推荐菜谱或者帮我点外卖，别推带香菜的", "推荐菜谱或者点外卖，别推带香菜的。"),
        ("密码一律私聊发给你，不在群里回复。", "密码一律私聊发，不在群里回复。"),
        (
            "Never book anything on Sunday mornings. that's church and then brunch with my mom",
            "Never book anything on Sunday mornings.",
        ),
    ],
)
def test_asides_and_addressing_the_assistant_give_way_to_the_fact(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    "fact",
    [
        "Rota is Dana → Femi → Ines → me, then repeat.",
        "When you pull CI logs for me, only show the failing step, last 30 lines max.",
        "控制台 https://nas-02.lan:9001，我老记不住的是 S3 API 在 9000。",
    ],
)
def test_a_clause_with_a_value_or_a_rule_is_never_an_aside(fact: str) -> None:
    assert tidy_bullet(fact, DAY) == fact


def test_a_week_word_that_names_something_stays() -> None:
    assert tidy_bullet("这周的账单统一发到记账 topic。", DAY) == "这周的账单统一发到记账 topic。"


@pytest.mark.parametrize(
    "greeting", ["hey 帮我把这周的账记一下", "hi, can you add the groceries to the list"]
)
def test_a_greeting_does_not_hide_a_one_off_request(greeting: str) -> None:
    from tests.extract.support import chat

    assert (
        saved(extract(chat(f"u: {greeting}", "a: 好的，已记上。" if "帮" in greeting else "a: Done."))) == []
    )


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("You have Mosquitto on hab-01", "Mosquitto on hab-01"),
        (
            "Let's Encrypt must reach port 80 on your public IP.",
            "Let's Encrypt must reach port 80 on the public IP.",
        ),
        ("Set `your_var` in the env file.", "Set `your_var` in the env file."),  # never inside a code span
    ],
)
def test_the_chats_you_becomes_the_fact(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Will do: from now on compose snippets only, no `docker run`.",
            "Compose snippets only, no `docker run`.",
        ),
        (
            "That's the catch: `daemon.json` log-opts only apply to new containers.",
            "`daemon.json` log-opts only apply to new containers.",
        ),
        ("这条值得记下来：pg_upgrade 不迁 `postgresql.conf`。", "pg_upgrade 不迁 `postgresql.conf`。"),
        (
            "但是以后新买的 zigbee 设备一律接 zigbee2mqtt，不再往米家网关上加",
            "新买的 zigbee 设备一律接 zigbee2mqtt，不再往米家网关上加。",
        ),
    ],
)
def test_the_assistants_promises_and_joints_are_no_part_of_the_fact(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


def test_a_tables_header_row_is_no_bullet() -> None:
    assert tidy_bullet("| 酒店 | 日期 | 确认号 |", DAY) == ""
    assert tidy_bullet("| Cross Hotel | 1/18 | 5839201746 |", DAY) != ""


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Got it: nas-01 is 192.168.1.21 from now on.",
            "nas-01 is 192.168.1.21.",
        ),  # an id keeps its case
        (
            "it's .21 now, I swapped the NIC last week",
            "it's .21 now, I swapped the NIC",
        ),  # ".21" stays a value
        (
            "`18:    conn = sqlite3.connect(DB_PATH)`",
            "`18:    conn = sqlite3.connect(DB_PATH)`",
        ),  # code keeps its spaces
    ],
)
def test_identifiers_and_code_are_kept_exactly(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        # who said it stays as the source; the saying, their "OK" and their "from now on" go
        ("Dana said: OK, manual pushes go through her.", "Dana: manual pushes go through her."),
        (
            "Dr. Tan's nurse said from now on book follow-ups on WhatsApp +65 8123 4690.",
            "Dr. Tan's nurse: book follow-ups on WhatsApp +65 8123 4690.",
        ),
        ("The landlord says rent is due on the 1st.", "The landlord: rent is due on the 1st."),
        # the report of asking goes; a pronoun takes the name of the one asked, or names no one
        (
            "I pinged Dana, she said manual pushes always needed her.",
            "Dana: manual pushes always needed her.",
        ),
        (
            "He said the deposit comes back after the inspection.",
            "The deposit comes back after the inspection.",
        ),
        # a thing that "says" is no speaker
        ("It says 88 mcg.", "It says 88 mcg."),
        ("The log says permission denied on /var/run.", "The log says permission denied on /var/run."),
        ("`woodpecker-server --version` says 3.2.0.", "`woodpecker-server --version` says 3.2.0."),
    ],
)
def test_reported_speech_in_english_states_the_words_with_their_source(said: str, stated: str) -> None:
    assert tidy_bullet(said) == stated


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("很好，备份每天 03:00 跑。", "备份每天 03:00 跑。"),  # praise before the fact
        ("太好了：申根多次签，有效期至 2027-06-30。", "申根多次签，有效期至 2027-06-30。"),
        ("：PO 只认微信发的", "PO 只认微信发的"),  # a bare colon left by a lead-in
    ],
)
def test_praise_and_a_bare_colon_before_the_fact_go(said: str, stated: str) -> None:
    assert tidy_bullet(said) == stated
