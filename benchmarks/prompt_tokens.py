"""Estimated prompt tokens of the LLM extractor's request vs. the naive approach, per eval case.

    python benchmarks/prompt_tokens.py [--cases ../shared/eval/cases.jsonl] [--skill FILE]

Ours: the exact system + user messages ``savenow.extract.prompt.build_prompt``
produces for the case with the default settings (``llm.max_prompt_tokens``).
Naive: what an agent running the OpenClaw skill has in its context for the same
job: the skill's text (``skills/savenow/SKILL.md``, or a ~3 KB stand-in when it
is missing) as the system message, every transcript message as its own chat
message, and the whole memory file. The naive side is counted conservatively:
no tool calls, tool output, metadata blocks or timestamps, which a real session
would add.

Both sides use the same estimator (DESIGN §7: 1 token per CJK character + the
other characters / 4, plus a small per-message overhead). Prints one row per
case, the median ratio ours/naive (target ≤ 0.5) and the largest prompt.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_common import DEFAULT_CASES, case_messages, case_sections, load_cases

from savenow.config import LLMSettings
from savenow.extract.prompt import Prompt, build_prompt
from savenow.text.tokens import MESSAGE_OVERHEAD_TOKENS, estimate_messages_tokens, estimate_tokens

DEFAULT_SKILL = ROOT / "skills" / "savenow" / "SKILL.md"

# Used only when skills/savenow/SKILL.md is missing: a skill-sized instruction text (~3 KB).
STAND_IN_SKILL = (
    "# /savenow — save what matters from this conversation\n\n"
    "Turn the current conversation into at most 5 durable notes and write them to the workspace's "
    "memory/YYYY-MM-DD.md after the user approves a preview. Read the last 120-180 user/assistant "
    "messages; ignore tool calls, tool output, thinking, images and metadata blocks. Durable: the final, "
    "confirmed root cause and its fix; stable rules and conventions; preferences and routing rules; system "
    "maps, IDs, paths, hosts, ports, owners; decisions that will matter later. Not durable: greetings, "
    "thanks, jokes, status pings, one-off plans for today, abandoned ideas and disproven hypotheses, pasted "
    "logs as such, the same fix repeated, what today's memory file already says. Short titles, 1-3 "
    "self-contained bullets, the conversation's language. Read today's memory file first: a note that "
    "belongs under an existing section is merge with merge_target_title = that heading; already there is "
    "skip. Write temp/savenow-entries.json, run savenow preview-diff with the pending file, session key "
    "and thread id, reply with its Markdown exactly and the Apply / Cancel buttons.\n"
) * 3


# How OpenClaw hands an inbound Telegram message to the agent (DESIGN §4): metadata blocks and an
# envelope prefix, which savenow's transcript cleaning strips. Used for the "as delivered" column only.
INBOUND_METADATA = (
    "Conversation info (untrusted metadata):\n```json\n"
    '{{"chat_id": "telegram:-1001234567890", "topic_id": "42", "is_forum": true}}\n```\n\n'
    "Sender (untrusted metadata):\n```json\n"
    '{{"label": "Alice (1234)", "name": "Alice"}}\n```\n\n'
    "[Thu {date} {time} GMT+8] "
)


def naive_messages(case: dict, skill_text: str, *, as_delivered: bool = False) -> list[dict[str, str]]:
    chat = [{"role": "system", "content": skill_text}]
    for message in case["transcript"]:
        text = message["text"]
        if as_delivered and message["role"] == "user":
            text = INBOUND_METADATA.format(date=message["ts"][:10], time=message["ts"][11:16]) + text
        chat.append({"role": message["role"], "content": text})
    chat.append({"role": "user", "content": case["memory_before"] or "(no memory file yet)"})
    return chat


def ours_parts(prompt: Prompt) -> tuple[int, int, int]:
    """Diagnostics: the estimated tokens of our system message, memory block and chat block."""
    system = estimate_tokens(prompt.messages[0]["content"])
    user = prompt.messages[1]["content"]
    memory, _, chat = user.partition("\n\nChat (")
    return system, estimate_tokens(memory), estimate_tokens(chat)


def naive_chat_tokens(case: dict) -> int:
    """Diagnostics: the naive side's transcript (every message as its own chat message)."""
    return sum(MESSAGE_OVERHEAD_TOKENS + estimate_tokens(m["text"]) for m in case["transcript"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--skill", type=Path, default=DEFAULT_SKILL)
    args = parser.parse_args(argv)

    if args.skill.is_file():
        skill_text, skill_source = args.skill.read_text(encoding="utf-8"), str(args.skill.relative_to(ROOT))
    else:
        skill_text, skill_source = STAND_IN_SKILL, f"stand-in text ({len(STAND_IN_SKILL)} characters)"
    max_prompt_tokens = LLMSettings().max_prompt_tokens

    rows = []
    for case in load_cases(args.cases):
        prompt = build_prompt(
            case_messages(case), case_sections(case["memory_before"]), max_prompt_tokens=max_prompt_tokens
        )
        ours = estimate_messages_tokens(prompt.messages)
        naive = estimate_messages_tokens(naive_messages(case, skill_text))
        delivered = estimate_messages_tokens(naive_messages(case, skill_text, as_delivered=True))
        rows.append(
            (
                case["id"],
                case["lang"],
                len(case["transcript"]),
                naive,
                ours,
                ours / naive,
                prompt,
                ours / delivered,
            )
        )

    print(f"naive baseline: skill text from {skill_source} + whole transcript + whole memory file")
    print(f"ours: build_prompt(..., max_prompt_tokens={max_prompt_tokens}) system + user messages\n")
    header = f"{'case':40} {'lang':5} {'msgs':>4} {'naive':>6} {'ours':>6} {'ratio':>6} {'vs-deliv':>8}"
    print(header + "  dropped msgs/sections  filler  sys/mem/chat  chat vs naive chat")
    cases_by_id = {case["id"]: case for case in load_cases(args.cases)}
    chat_shares = []
    needed_shares = []  # the chat block's share of the naive transcript at which the ratio would be 0.5
    for case_id, lang, count, naive, ours, ratio, prompt, delivered_ratio in rows:
        system, memory, chat = ours_parts(prompt)
        chat_share = chat / naive_chat_tokens(cases_by_id[case_id])
        chat_shares.append(chat_share)
        needed_shares.append((0.5 * naive - (ours - chat)) / naive_chat_tokens(cases_by_id[case_id]))
        print(
            f"{case_id:40} {lang:5} {count:4d} {naive:6d} {ours:6d} {ratio:6.2f} {delivered_ratio:8.2f}"
            f"  {prompt.messages_dropped:>7}/{prompt.sections_omitted:<8}"
            f"  {prompt.messages_filler:6d}  {system:3d}/{memory:3d}/{chat:4d}  {chat_share:6.2f}"
        )
    ratios = [row[5] for row in rows]
    largest = max(rows, key=lambda row: row[4])
    system_tokens = estimate_messages_tokens(rows[0][6].messages[:1]) if rows else 0
    print()
    print(f"cases: {len(rows)}")
    print(f"median ratio ours/naive: {statistics.median(ratios):.2f} (target <= 0.5)")
    print(f"mean ratio: {statistics.mean(ratios):.2f}; min {min(ratios):.2f}; max {max(ratios):.2f}")
    delivered = statistics.median(row[7] for row in rows)
    print(
        f"median ratio vs. the naive context as OpenClaw delivers it (metadata blocks per user message): {delivered:.2f}"
    )
    print(
        f"largest prompt (ours): {largest[4]} tokens ({largest[0]}); naive largest: {max(r[3] for r in rows)}"
    )
    print(f"fixed part of ours (system message): {system_tokens} tokens")
    print(
        f"diagnostics: median chat block vs. the naive transcript: {statistics.median(chat_shares):.2f}; "
        f"filler messages left out: {sum(row[6].messages_filler for row in rows)} of "
        f"{sum(row[2] for row in rows)}"
    )
    print(
        "diagnostics: for a ratio of 0.5 with this system prompt and memory block, the chat block would "
        f"have to be {statistics.median(needed_shares):.2f} of the naive transcript (median)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
