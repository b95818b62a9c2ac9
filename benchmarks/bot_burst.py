"""A burst: 200 /savenow in 10 s across 20 topics with a slow extractor, then SIGTERM (issue 9, issue 10).

    python benchmarks/bot_burst.py [--commands 200] [--topics 20] [--seconds 10] [--extract-seconds 3]

What runs: the standalone bot (PTB Application polling the fake Bot API on
127.0.0.1), the real SaveNowService with an extractor that sleeps
``--extract-seconds`` (an LLM stand-in), 20 distinct users (no cooldown in the
way). The commands arrive evenly over ``--seconds``; then the bot is stopped
the way SIGTERM stops it (the stop event ``savenow bot`` sets), while
extractions are still running.

Printed: how the commands were answered (previews, "already running in this
topic", "busy", other), the time from the first command to the last answer,
and the time from the stop to ``serve()`` returning (target: under 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_concurrency import CHAT_ID, NOW, SlowExtractor, seed_topics
from telegram.ext import AIORateLimiter

from savenow.clock import Clock
from savenow.config import Settings
from savenow.service import SaveNowService
from savenow.telegram.bot import serve
from tests.fakes.botapi import FakeBotAPI, group_chat, user

USERS = 20


def kind(text: str) -> str:
    if "/savenow preview" in text:
        return "preview"
    if "already running in this topic" in text:
        return "topic busy"
    if "busy with many requests" in text:
        return "queue full"
    return "other"


async def measure(commands: int, topics: int, seconds: float, extract_seconds: float) -> None:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder, FakeBotAPI() as api:
        root = Path(folder)
        (root / "workspace").mkdir()
        settings = Settings(
            workspace=root / "workspace",
            sessions_dir=root / "no-openclaw",
            timezone="UTC",
            telegram={
                "token": api.token,
                "api_base_url": api.base_url,
                "allowed_user_ids": [3000 + n for n in range(USERS)],
                "cooldown_seconds": 0,
            },
        )
        clock = Clock(tz=UTC_CLOCK, fixed=NOW)
        seed_topics(settings, clock, topics)
        service = SaveNowService(settings, clock=clock, extractor=SlowExtractor(extract_seconds))
        stop = asyncio.Event()
        ready = asyncio.get_running_loop().create_future()
        bot = asyncio.create_task(
            serve(
                settings,
                stop,
                clock=clock,
                service=service,
                rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
                on_ready=ready.set_result,
            )
        )
        await asyncio.wait_for(ready, 15)
        forum = group_chat(CHAT_ID, forum=True)
        started = time.monotonic()
        for n in range(commands):
            thread = 2 + n % topics
            api.push_message(forum, user(3000 + n % USERS, f"user{n % USERS}"), "/savenow", thread_id=thread)
            await asyncio.sleep(seconds / commands)
        answers = await api.wait_for("sendMessage", count=commands, timeout=600)
        last = max(call.at for call in answers) - started
        counts = Counter(kind(call.text) for call in answers)
        # A second wave, and stop while it is extracting.
        typing_before = len(api.calls_to("sendChatAction"))
        for n in range(topics):
            api.push_message(forum, user(3000 + n % USERS, "again"), "/savenow", thread_id=2 + n)
        await api.wait_for("sendChatAction", count=typing_before + topics, timeout=60)
        stopping = time.monotonic()
        stop.set()
        await bot
        stopped = time.monotonic() - stopping
    print(
        f"{commands} /savenow over {seconds:.0f} s in {topics} topics, extractor {extract_seconds:.1f} s each"
    )
    print("answers: " + ", ".join(f"{name} {count}" for name, count in sorted(counts.items())))
    print(f"last answer {last:.2f} s after the first command")
    verdict = "OK" if stopped < 2 else "SLOW"
    print(
        f"stop with {topics} extractions running: serve() returned in {stopped:.2f} s (target < 2 s: {verdict})"
    )


UTC_CLOCK = NOW.tzinfo


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--topics", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--extract-seconds", type=float, default=3.0)
    args = parser.parse_args()
    asyncio.run(measure(args.commands, args.topics, args.seconds, args.extract_seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
