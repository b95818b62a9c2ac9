"""The prompt's trimming rules: what is left out or shortened, and that durable content survives."""

from __future__ import annotations

import pytest

from savenow.extract.prompt import (
    SYSTEM_PROMPT,
    block_anchors,
    build_prompt,
    is_filler,
    is_unrelated,
    render_transcript,
    shorten_block,
    strip_leading_filler,
)
from savenow.models import ChatMessage, MemorySection
from savenow.text.tokens import estimate_messages_tokens


def user(text: str) -> ChatMessage:
    return ChatMessage("user", text)


def assistant(text: str) -> ChatMessage:
    return ChatMessage("assistant", text)


def chat_block(messages: list[ChatMessage], sections: list[MemorySection] | None = None) -> str:
    prompt = build_prompt(messages, sections or [], max_prompt_tokens=12000)
    return prompt.messages[1]["content"]


# -- filler messages -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "ok", "OK.", "okay!", "👍", "👍 thanks", "thx", "Thanks for the help!", "one sec", "brb", "back",
        "hi", "good morning", "lol", "haha", "you're welcome", "Sure.", "hey, quick one", "😩",
        "好", "好的", "好 我试下", "谢谢啦", "好 谢谢", "哈哈 谢了", "不客气～", "在吗", "早", "嗯嗯",
        "哈哈哈哈", "记下了。", "去吧～", "回来了", "稍等",
    ],
)  # fmt: skip
def test_pure_acknowledgements_are_filler(text: str) -> None:
    assert is_filler(text)


@pytest.mark.parametrize(
    "text",
    [
        # confirmations that follow a fix
        "works", "pdf works", "it answers again!!", "nice", "perfect", "done", "好了", "好了好了，dashboard 绿了",
        "果然", "可以了", "正常了", "起来了 ✅", "✅", "🎉", "❌",
        # answers and corrections
        "yes", "no", "nope, still 413", "对", "不是", "不对", "不用",
        # identifiers, numbers, code, paths
        "ok 3", "252", "ok `nginx -t`", "ok /etc/nginx", "ok files.conf", "好 port 18789",
        # rules, owners, decisions
        "ok from now on", "always", "never again", "decided", "好 以后都这样", "记住", "Alice 负责",
        "ok, root cause found", "好 就这么定",
    ],
)  # fmt: skip
def test_outcomes_answers_signals_and_markers_are_never_filler(text: str) -> None:
    assert not is_filler(text)


def test_an_acknowledgement_that_answers_a_question_is_kept() -> None:
    assert is_filler("好")
    assert not is_filler("好", answers_question=True)

    transcript = render_transcript([assistant("要不要把 pipeline 里推 latest 的 job 删掉？"), user("好")])

    assert transcript.lines == ["A: 要不要把 pipeline 里推 latest 的 job 删掉？", "U: 好"]
    assert transcript.filler_dropped == 0


def test_filler_is_left_out_and_counted_but_is_not_a_budget_drop() -> None:
    messages = [
        user("早"),
        user("dashboard 又连不上了，提示 unauthorized: gateway token mismatch"),
        user("好 我试下"),
        assistant("Fix: delete `Environment=OPENCLAW_GATEWAY_TOKEN` from the unit."),
        user("👍 thanks"),
    ]

    prompt = build_prompt(messages, [], max_prompt_tokens=12000)

    user_content = prompt.messages[1]["content"]
    assert "我试下" not in user_content and "👍" not in user_content and "\nU: 早" not in user_content
    assert "gateway token mismatch" in user_content and "OPENCLAW_GATEWAY_TOKEN" in user_content
    assert prompt.messages_filler == 3
    assert prompt.messages_dropped == 0  # no "oldest messages were left out" notice for filler
    assert prompt.messages_sent == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("好。以后这个服务只认 venv", "以后这个服务只认 venv"),
        ("OK. Steps: add the DNS record first", "Steps: add the DNS record first"),
        ("Sure, the port is 18789", "the port is 18789"),
        ("好了。总结一下两处改动", "好了。总结一下两处改动"),  # an outcome, not an acknowledgement
        ("Good. For the notes: 200m", "Good. For the notes: 200m"),
        ("No, it's fine", "No, it's fine"),
        ("ok", "ok"),  # nothing after it: the whole-message rule decides
    ],
)
def test_a_leading_acknowledgement_is_stripped_from_the_content(text: str, expected: str) -> None:
    assert strip_leading_filler(text) == expected


def test_a_leading_acknowledgement_that_answers_a_question_stays() -> None:
    transcript = render_transcript(
        [assistant("Should I re-run the failed digests?"), user("Sure, the 3 from finance")]
    )

    assert transcript.lines[1] == "U: Sure, the 3 from finance"


# -- pasted blocks ---------------------------------------------------------------------------------------


def numbered_log(count: int, text: str = "connection refused") -> list[str]:
    return [f"{i:03d} worker: {text}" for i in range(count)]


def test_a_long_block_keeps_its_head_and_tail_and_marks_what_it_left_out() -> None:
    block = numbered_log(40)

    shortened = shorten_block(block, anchors=set())

    assert shortened[:6] == block[:6]
    assert shortened[-3:] == block[-3:]
    assert shortened[6] == "…(31 lines)"
    assert len(shortened) == 10


def test_a_short_block_is_kept_whole() -> None:
    block = numbered_log(11)
    assert shorten_block(block, anchors=set()) == block


def test_middle_lines_with_an_identifier_the_chat_talks_about_survive() -> None:
    log = numbered_log(40)
    log[20] = "212:        client_max_body_size 10m;"
    log[30] = "Environment=OPENCLAW_GATEWAY_TOKEN=9f3c..."
    messages = [
        user("```\n" + "\n".join(log) + "\n```"),
        assistant(
            "`client_max_body_size` in the location block wins; 以后先删掉 OPENCLAW_GATEWAY_TOKEN 那行。"
        ),
    ]

    lines = render_transcript(messages).lines

    assert "212:  client_max_body_size 10m;" in lines[0]  # the padding is squeezed, the line kept
    assert "Environment=OPENCLAW_GATEWAY_TOKEN=9f3c..." in lines[0]
    assert "…(14 lines)" in lines[0] and "…(9 lines)" in lines[0] and "…(6 lines)" in lines[0]
    assert "015 worker" not in lines[0]


def test_anchors_come_from_prose_and_from_identifiers_that_recur_across_messages() -> None:
    anchors = block_anchors(
        [
            "the `drop` service sets limits.fileSize; see drop/src/upload.js",
            "```\nport=18789 pid=41877\n```",
            "```\nExecStart=node index.js --port 18789\n```",
            "就是 pg-backup.timer 的问题",
        ]
    )

    assert {"limits.filesize", "drop/src/upload.js", "18789", "pg-backup.timer"} <= anchors
    assert "41877" not in anchors  # in one pasted block only
    assert "the" not in anchors and "service" not in anchors


def test_a_line_repeated_right_after_itself_is_written_once() -> None:
    block = ["start", *["retrying in 1s"] * 5, "gave up"]

    assert shorten_block(block, anchors=set()) == [
        "start",
        "retrying in 1s",
        "…(the line above 4 more times)",
        "gave up",
    ]


def test_column_padding_is_squeezed_but_indentation_kept() -> None:
    block = [
        "NEXT                        LEFT     UNIT",
        "Wed 2026-11-25 03:00:00 UTC 23h left pg-backup.timer",
        "def f():",
        "        return 1",
    ]

    assert shorten_block(block, anchors=set()) == [
        "NEXT  LEFT  UNIT",
        "Wed 2026-11-25 03:00:00 UTC 23h left pg-backup.timer",
        "def f():",
        "        return 1",
    ]


def test_a_log_prefix_repeating_the_line_above_becomes_a_ditto_mark() -> None:
    block = [
        "Dec 05 20:28:41 vps tgbot[51220]: Traceback (most recent call last):",
        "Dec 05 20:28:41 vps tgbot[51220]: ModuleNotFoundError: No module named 'httpx'",
        "Dec 05 20:28:42 vps systemd[1]: tgbot.service: Main process exited",
    ]

    assert shorten_block(block, anchors=set()) == [
        block[0],
        "〃 ModuleNotFoundError: No module named 'httpx'",
        block[2],  # another second: the timestamp differs, the line stays whole
    ]


def test_shared_indentation_alone_is_not_a_ditto_prefix() -> None:
    block = ["                    deeply_nested_call(a)", "                    deeply_nested_call(b)"]
    assert shorten_block(block, anchors=set()) == block


def test_blank_lines_inside_a_message_become_one_newline() -> None:
    lines = render_transcript([assistant("找到原因了。\n\n\n修法：\n\n1. 删掉那一行")]).lines
    assert lines == ["A: 找到原因了。\n修法：\n1. 删掉那一行"]


# -- role marks --------------------------------------------------------------------------------------------


def test_the_role_mark_is_written_only_where_the_speaker_changes() -> None:
    messages = [
        user("nginx 413 again"),
        user("31 MB pdf"),
        assistant("check `nginx -T`"),
        user("212 is files.conf"),
    ]

    prompt = build_prompt(messages, [], max_prompt_tokens=12000)

    assert prompt.messages[1]["content"].endswith(
        "U: nginx 413 again\n31 MB pdf\nA: check `nginx -T`\nU: 212 is files.conf"
    )
    assert prompt.estimated_tokens == estimate_messages_tokens(prompt.messages)


def test_the_budget_still_drops_the_oldest_messages_first_with_merged_role_marks() -> None:
    messages = [user(f"#{i} the gateway on vps-hk listens on port 18789 " * 6) for i in range(60)]

    prompt = build_prompt(messages, [], max_prompt_tokens=1500)

    content = prompt.messages[1]["content"]
    assert prompt.estimated_tokens <= 1500 and prompt.messages_dropped > 0
    assert content.count("\nU: ") == 1  # the first message sent carries the mark
    assert "#59 " in content and "#0 " not in content


# -- memory sections ---------------------------------------------------------------------------------------

CHAT = [
    user("uploads to files.kestrel.dev fail with 413"),
    assistant("`client_max_body_size 10m` in /etc/nginx/sites-enabled/files.conf overrides the global 50m."),
]


def test_a_section_that_shares_nothing_with_the_chat_is_sent_as_its_heading() -> None:
    sections = [
        MemorySection("nginx on edge-1", ("Global upload limit: `client_max_body_size 50m;` in nginx.conf",)),
        MemorySection("Reading queue", ("DDIA chapter eight next; skip chapter nine for now",)),
        MemorySection("家里 NAS", ("群晖 DS920+，管理地址在书房",)),
    ]

    content = chat_block(CHAT, sections)

    assert "## nginx on edge-1\n- Global upload limit" in content
    assert "## Reading queue …\n" in content and "DDIA" not in content
    assert "## 家里 NAS …\n" in content and "群晖" not in content
    assert '("…": bullets unrelated to this chat, not shown)' in content


def test_relatedness_works_for_english_and_chinese() -> None:
    conversation = "备份 是 pg-backup.timer 触发的，定时任务 没有监控，用 uptime kuma 不行".lower()

    assert not is_unrelated(MemorySection("备份脚本", ("由 `pg-backup.timer` 触发",)), conversation)
    assert not is_unrelated(
        MemorySection("监控", ("Uptime Kuma 只做 HTTP 检查；定时任务目前没有监控",)), conversation
    )
    assert is_unrelated(MemorySection("周报", ("每周五下午把周报发到频道，格式沿用上周模板",)), conversation)
    assert is_unrelated(MemorySection("Grocery list", ("Shared list lives in Apple Notes",)), conversation)


def test_a_shared_identifier_keeps_a_section_whole() -> None:
    section = MemorySection("Paperless-ngx", ("Runs in Docker on `edge-1`", "Consume folder elsewhere"))
    assert not is_unrelated(section, "the nginx on edge-1 returns 413")


def test_a_tiny_section_is_never_collapsed() -> None:
    assert not is_unrelated(MemorySection("Gateway", ("port",)), "nothing in common here")


def test_no_collapse_note_when_every_section_is_sent_whole() -> None:
    content = chat_block(CHAT, [MemorySection("nginx", ("client_max_body_size 50m in nginx.conf",))])
    assert "not shown" not in content


# -- durable content survives, end to end ------------------------------------------------------------------

ZH_CHAT = [
    user("早"),
    assistant("早！今天先弄哪个？"),
    user("dashboard 又连不上了，提示 unauthorized: gateway token mismatch"),
    user("好 我试下"),
    user("systemd 跑的"),
    user(
        "```\n"
        + "\n".join([f"line {i}" for i in range(30)] + ["Environment=OPENCLAW_GATEWAY_TOKEN=9f3c"])
        + "\n```"
    ),
    assistant("找到原因了：unit 里的 `OPENCLAW_GATEWAY_TOKEN` 覆盖了 `~/.openclaw/openclaw.json`。"),
    user("好了好了"),
    user("果然"),
    user("以后排查问题你先给结论，再给命令"),
    user("Kenji 负责 etl-pipeline"),
    user("嗯"),
    assistant("不客气～"),
]

EN_CHAT = [
    user("morning"),
    user("uploads to files.kestrel.dev fail with 413"),
    user("one sec"),
    assistant("The root cause: `client_max_body_size 10m` in files.conf overrides the global 50m."),
    user("changed to 200m, reloaded"),
    user("pdf works"),
    user("From now on anything over 100 MB goes through direct.files.kestrel.dev"),
    user("Priya owns the org account"),
    user("we decided: no chunked uploads"),
    user("👍 thanks"),
]


@pytest.mark.parametrize(
    ("messages", "durable", "dropped"),
    [
        (
            ZH_CHAT,
            ["gateway token mismatch", "systemd 跑的", "Environment=OPENCLAW_GATEWAY_TOKEN=9f3c", "找到原因了",
             "好了好了", "果然", "以后排查问题", "Kenji 负责 etl-pipeline", "今天先弄哪个？"],
            ["好 我试下", "不客气", "U: 早\n", "\n嗯\n"],
        ),
        (
            EN_CHAT,
            ["files.kestrel.dev fail with 413", "The root cause", "200m, reloaded", "pdf works",
             "From now on", "Priya owns", "we decided"],
            ["one sec", "👍", "morning"],
        ),
    ],
)  # fmt: skip
def test_durable_lines_survive_and_filler_goes(
    messages: list[ChatMessage], durable: list[str], dropped: list[str]
) -> None:
    content = chat_block(messages) + "\n"

    for text in durable:
        assert text in content
    for text in dropped:
        assert text not in content


def test_the_system_prompt_keeps_its_rules() -> None:
    for rule in (
        "Durable:", "Not durable:", "root cause", "以后", "secret values", "disproven", "at most 5",
        "conversation's language", '"entries"', "candidate_index", "merge_target_title", "add|merge|skip",
        'no "## "', "a repeated fix is one",
    ):  # fmt: skip
        assert rule in SYSTEM_PROMPT
