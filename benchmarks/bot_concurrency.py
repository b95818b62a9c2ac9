"""50 forum topics send /savenow at once; the extractor takes 1 s each (issue 5, item 10).

Target: all 50 previews sent within 2 s of the commands arriving, and an
event loop that stays responsive meanwhile.

    python benchmarks/bot_concurrency.py [--topics 50] [--extract-seconds 1] [--workers 64]

What runs: the standalone bot (``savenow.telegram.bot.serve``: PTB Application
polling, handlers with ``block=False``), the real ``SaveNowService`` with an
extractor that sleeps ``--extract-seconds`` and proposes one note, and the
recorder's store holding one conversation per topic, all against the fake Bot
API server (tests/fakes/botapi.py) on 127.0.0.1 in its own thread.

Printed:
  * time from the 50 updates being queued to the last preview reaching the server,
    and the first / median preview;
  * event-loop lag: a probe task asks to wake every 10 ms; lag is how late it woke
    (max, p99, median) while the 50 previews were in flight.

The fake server has no flood limits, so the bot's AIORateLimiter is built with
throttling off (429 retries still on). Against the real Telegram, 50 messages to
one group are throttled to about 20 a minute whatever the bot does.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from telegram.ext import AIORateLimiter

from savenow.clock import Clock
from savenow.config import Settings
from savenow.models import ChatMessage, Entry, ExtractionResult, MemorySection
from savenow.service import SaveNowService
from savenow.sessions.keys import telegram_session_key
from savenow.sessions.recorder import SessionRecorder
from savenow.telegram.bot import serve
from tests.fakes.botapi import FakeBotAPI, group_chat, user

CHAT_ID = -1009876543210
NOW = datetime(2026, 5, 15, 14, 0, tzinfo=UTC)


class SlowExtractor:
    """Stands in for an LLM: blocks its thread for ``seconds``, then proposes one note."""

    name = "slow"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def extract(self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]) -> ExtractionResult:
        time.sleep(self.seconds)
        topic = messages[-1].text if messages else "nothing"
        return ExtractionResult(entries=[Entry(title=f"Note from {topic}", bullets=[f"Remember {topic}."])])


def seed_topics(settings: Settings, clock: Clock, topics: int) -> None:
    recorder = SessionRecorder(
        settings.effective_recorder_dir, agent_id=settings.agent_id, clock=clock, idle_gap=timedelta(days=1)
    )
    for thread in range(1, topics + 1):
        key = telegram_session_key(
            settings.agent_id, chat_type="group", chat_id=CHAT_ID, thread_id=str(thread + 1)
        )
        recorder.record(
            key,
            role="user",
            text=f"topic {thread + 1}: deploys go through the staging gateway first",
            message_id=thread,
            chat_id=str(CHAT_ID),
            chat_type="group",
            thread_id=str(thread + 1),
        )


async def probe_lag(stop: asyncio.Event, samples: list[float], interval: float = 0.01) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(interval)
        samples.append(loop.time() - start - interval)


async def measure(topics: int, extract_seconds: float, workers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder, FakeBotAPI() as api:
        root = Path(folder)
        (root / "workspace").mkdir()
        settings = Settings(
            workspace=root / "workspace",
            sessions_dir=root / "no-openclaw",
            timezone="UTC",
            telegram={
                "token": api.token,
                "api_base_url": api.base_url,
                "allowed_user_ids": [2000 + thread for thread in range(1, topics + 1)],
            },
        )
        clock = Clock(tz=UTC, fixed=NOW)
        seed_topics(settings, clock, topics)
        service = SaveNowService(settings, clock=clock, extractor=SlowExtractor(extract_seconds))
        limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
        stop = asyncio.Event()
        ready = asyncio.get_running_loop().create_future()
        bot = asyncio.create_task(
            serve(
                settings,
                stop,
                clock=clock,
                service=service,
                rate_limiter=limiter,
                service_workers=workers,
                on_ready=ready.set_result,
            )
        )
        await asyncio.wait_for(ready, 15)

        forum = group_chat(CHAT_ID, forum=True)
        lag: list[float] = []
        probing = asyncio.Event()
        probe = asyncio.create_task(probe_lag(probing, lag))
        started = time.monotonic()
        for thread in range(1, topics + 1):
            api.push_message(forum, user(2000 + thread, f"user{thread}"), "/savenow", thread_id=thread + 1)
        previews = await api.wait_for(
            "sendMessage", lambda c: c.keyboard is not None, count=topics, timeout=120
        )
        probing.set()
        await probe
        stop.set()
        await bot

        arrivals = sorted(call.at - started for call in previews)
        lag_ms = sorted(sample * 1000 for sample in lag)
        return {
            "all": arrivals[-1],
            "first": arrivals[0],
            "median": statistics.median(arrivals),
            "lag_max": lag_ms[-1],
            "lag_p99": lag_ms[min(len(lag_ms) - 1, int(len(lag_ms) * 0.99))],
            "lag_median": statistics.median(lag_ms),
            "threads": len({c.thread_id for c in previews}),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--extract-seconds", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=64, help="the service thread pool's size")
    args = parser.parse_args()
    result = asyncio.run(measure(args.topics, args.extract_seconds, args.workers))
    target = 2.0
    verdict = "OK" if result["all"] <= target else "SLOW"
    print(
        f"topics: {args.topics} (previews in {result['threads']} distinct topics), extractor: {args.extract_seconds:.1f} s each"
    )
    print(
        f"all {args.topics} previews sent: {result['all']:.2f} s (target ≤ {target:.1f} s: {verdict}); "
        f"first {result['first']:.2f} s, median {result['median']:.2f} s"
    )
    print(
        f"event-loop lag: max {result['lag_max']:.1f} ms, p99 {result['lag_p99']:.1f} ms, "
        f"median {result['lag_median']:.1f} ms (probe every 10 ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
