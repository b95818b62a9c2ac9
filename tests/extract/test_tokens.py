"""The token estimate (DESIGN §7) and the prompt budget built on it."""

from __future__ import annotations

import pytest

from savenow.extract.prompt import SYSTEM_PROMPT, build_prompt, render_transcript_lines, select_sections
from savenow.models import ChatMessage, MemorySection
from savenow.text.tokens import (
    MESSAGE_OVERHEAD_TOKENS,
    REPLY_PRIMING_TOKENS,
    count_cjk,
    estimate_messages_tokens,
    estimate_tokens,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("abcd", 1),
        ("abcde", 2),
        ("网关令牌", 4),
        ("网关 token", 2 + 2),  # 2 Han + " token" (6 chars → 2)
        ("你好，世界。", 6),  # full-width punctuation counts as CJK
        ("ｔｏｋｅｎ", 5),  # full-width Latin too
        ("カタカナ한국어", 7),
    ],
)
def test_one_token_per_cjk_character_plus_the_rest_over_four(text: str, expected: int) -> None:
    assert estimate_tokens(text) == expected


def test_chinese_is_not_undercounted_like_characters_over_four() -> None:
    chinese = "清了浏览器缓存，无痕窗口也试了，还是报令牌不匹配" * 10
    assert estimate_tokens(chinese) == len(chinese)
    assert count_cjk(chinese) == len(chinese)
    assert estimate_tokens(chinese) > 3 * (len(chinese) // 4)


def test_messages_add_a_fixed_overhead() -> None:
    messages = [{"role": "system", "content": "abcd"}, {"role": "user", "content": "网关"}]
    assert estimate_messages_tokens(messages) == REPLY_PRIMING_TOKENS + 2 * MESSAGE_OVERHEAD_TOKENS + 1 + 2


# -- the prompt budget -------------------------------------------------------------------------------------


def conversation(
    count: int, text: str = "we moved the gateway to vps-hk and kept port 18789 " * 8
) -> list[ChatMessage]:
    return [ChatMessage("user" if i % 2 == 0 else "assistant", f"#{i} {text}") for i in range(count)]


def test_a_small_conversation_is_sent_whole() -> None:
    prompt = build_prompt(
        conversation(6), [MemorySection("Gateway", ("port 18789",))], max_prompt_tokens=12000
    )

    assert prompt.messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
    user = prompt.messages[1]["content"]
    assert prompt.messages_dropped == 0 and prompt.sections_omitted == 0
    assert "## Gateway\n- port 18789" in user
    assert user.count("\nU: ") + user.count("\nA: ") == 6
    assert prompt.estimated_tokens == estimate_messages_tokens(prompt.messages)


@pytest.mark.parametrize("budget", [1000, 2000, 5000])
def test_the_oldest_messages_go_first_to_stay_under_the_budget(budget: int) -> None:
    messages = conversation(150)

    prompt = build_prompt(messages, [], max_prompt_tokens=budget)

    user = prompt.messages[1]["content"]
    assert prompt.estimated_tokens <= budget
    assert prompt.messages_dropped > 0
    assert prompt.messages_sent + prompt.messages_dropped == 150
    assert "#149 " in user  # the newest message is always there
    assert "#0 " not in user
    assert f"{prompt.messages_dropped} earlier messages omitted" in user


def test_a_single_huge_message_is_clipped_to_its_end() -> None:
    huge = ChatMessage("user", "日志" * 3000 + " THE-END")

    prompt = build_prompt([huge], [], max_prompt_tokens=1000)

    assert prompt.estimated_tokens <= 1000
    assert prompt.messages[1]["content"].endswith("THE-END")


def test_a_large_memory_file_sends_the_sections_closest_to_the_chat() -> None:
    filler = [
        MemorySection(f"Grocery list {i}", (f"buy apples and pears number {i} " * 6,)) for i in range(200)
    ]
    related = MemorySection("Gateway on vps-hk", ("the gateway listens on port 18789",))
    sections = [*filler[:100], related, *filler[100:]]

    prompt = build_prompt(conversation(10), sections, max_prompt_tokens=3000)

    user = prompt.messages[1]["content"]
    assert prompt.estimated_tokens <= 3000
    assert prompt.sections_omitted > 0
    assert "## Gateway on vps-hk" in user
    assert f"(201 sections; the {prompt.sections_sent} most related to this chat are shown)" in user
    assert prompt.messages_dropped == 0  # the transcript keeps its share


def test_selected_sections_keep_file_order() -> None:
    sections = [
        MemorySection(t, ("x",)) for t in ("Backups restic", "Nginx upload limit", "Restic retention")
    ]

    chosen = select_sections(sections, "restic backups retention policy restic", budget_tokens=14)

    assert [s.title for s in chosen] == ["Backups restic", "Restic retention"]


def test_long_pasted_blocks_are_shortened_and_repeats_sent_once() -> None:
    log = "```\n" + "\n".join(f"line {i}: connection refused" for i in range(100)) + "\n```"
    lines = render_transcript_lines([ChatMessage("user", log), ChatMessage("user", log)])

    assert "…(91 lines)" in lines[0]
    assert "line 0:" in lines[0] and "line 99:" in lines[0] and "line 50:" not in lines[0]
    assert lines[1] == "U: (the same text as an earlier message)"


def test_cjk_count_matches_the_character_class_on_every_code_point() -> None:
    """count_cjk matches UTF-8 bytes (cheap to compile); it must count what the str class counts."""
    import re

    from savenow.text.cjk import CJK_LETTER_RANGES, CJK_PUNCTUATION_RANGES, char_class

    ranges = CJK_PUNCTUATION_RANGES + CJK_LETTER_RANGES
    reference = re.compile("[" + char_class(ranges) + "]")
    everything = "".join(map(chr, range(0x110000)))  # lone surrogates included
    assert count_cjk(everything) == len(reference.findall(everything))
    edges = {code + step for low, high in ranges for code in (low, high) for step in (-1, 0, 1)}
    for code in sorted(edges):
        assert count_cjk(chr(code)) == len(reference.findall(chr(code))), hex(code)
    mixed = "端口 8080，ok！ｘ\U00020000\U0003134f\U00031350\ud800한글カナ…\u3000"
    assert count_cjk(mixed) == len(reference.findall(mixed)) == 12
