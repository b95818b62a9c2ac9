"""Shared pieces of the Telegram tests: a running bot against the fake Bot API, and helpers.

``running_bot`` starts the real standalone bot (:func:`savenow.telegram.bot.serve`:
PTB Application, AIORateLimiter, Defaults, polling) against :class:`FakeBotAPI`,
and stops it on exit. No test sleeps for a duration: they wait for the fake
server to see the expected call, with a bounded wait.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from savenow.clock import Clock
from savenow.config import Settings
from savenow.errors import AccessDeniedError, NoPendingError, PendingExpiredError
from savenow.models import Entry
from savenow.service import ApplyResult, CancelResult, ListResult, PreviewResult, Scope
from savenow.telegram.bot import serve
from savenow.telegram.plugin import SaveNowPlugin
from tests.fakes.botapi import FakeBotAPI

START = datetime(2026, 5, 15, 14, 0, tzinfo=UTC)
GROUP_ID = -1001234567890
ALICE_ID = 1001
BOB_ID = 1002
ADMIN_ID = 1003


async def eventually(check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait (bounded) until ``check()`` holds: for state the bot keeps, which no Bot API call shows."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.005)


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run one async test body with an overall bound, so a hang fails instead of stalling the suite."""
    return asyncio.run(asyncio.wait_for(coro, 60))


def run_with_bot(tmp_path: Path, body: Callable[[FakeBotAPI, Bot], Awaitable[None]], **options: Any) -> None:
    """Start a fake Bot API and the real bot on it, run ``await body(api, bot)``, then stop both."""

    async def main() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, **options) as bot:
                await body(api, bot)

    run(main())


def make_settings(tmp_path: Path, api: FakeBotAPI, **telegram: Any) -> Settings:
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    return Settings(
        workspace=workspace,
        sessions_dir=tmp_path / "openclaw-sessions",  # absent: only the recorder's store exists
        timezone="UTC",
        extractor="heuristic",
        telegram={
            "token": api.token,
            "api_base_url": api.base_url,
            "admin_user_ids": [ADMIN_ID],
            "allowed_user_ids": [ALICE_ID, BOB_ID],  # nobody is trusted by default (DESIGN §3.1)
            "cooldown_seconds": 0,  # tests that exercise the cooldown set it
            **telegram,
        },
    )


@dataclass
class Bot:
    api: FakeBotAPI
    plugin: SaveNowPlugin
    settings: Settings
    clock: Clock

    @property
    def workspace(self) -> Path:
        return self.settings.workspace

    def memory_text(self) -> str:
        path = self.settings.memory_dir / f"{self.clock.today().isoformat()}.md"
        return path.read_text(encoding="utf-8") if path.exists() else ""


@asynccontextmanager
async def running_bot(
    tmp_path: Path,
    *,
    api: FakeBotAPI,
    service: Any = None,
    clock: Clock | None = None,
    settings: Settings | None = None,
    max_pending: int | None = None,
    service_workers: int = 64,
    **telegram: Any,
) -> AsyncIterator[Bot]:
    clock = clock or Clock(tz=UTC, fixed=START)
    settings = settings or make_settings(tmp_path, api, **telegram)
    stop = asyncio.Event()
    ready: asyncio.Future[SaveNowPlugin] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        serve(
            settings,
            stop,
            clock=clock,
            service=service,
            poll_timeout=1,
            on_ready=ready.set_result,
            max_pending=max_pending,
            service_workers=service_workers,
        )
    )
    done, _ = await asyncio.wait({task, ready}, timeout=15, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()  # raises the start-up error
    plugin = ready.result()
    try:
        yield Bot(api=api, plugin=plugin, settings=settings, clock=clock)
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


# -- a scripted service (used where the real one cannot be: a slow or blocking extractor) ------


PREVIEW_MD = """### /savenow preview — memory/2026-05-15.md

**1 candidate** → 1 add. No write performed.

---

**1. ADD — Gateway token mismatch fix**
- Resolved `unauthorized: gateway token mismatch` by updating <gateway.cmd> & env.

---

Buttons expire in 30 min. Or `/savenow auto` next time to skip preview."""


@dataclass
class ScriptedService:
    """The SaveNowService methods the Telegram layer calls, with scripted answers."""

    clock: Clock
    markdown: str = PREVIEW_MD
    candidates: int = 1
    ttl: timedelta = timedelta(minutes=30)
    before_preview: Callable[[Scope], None] | None = None  # e.g. block, to test concurrency
    writes: list[str] = field(default_factory=list)
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    scopes: list[Scope] = field(default_factory=list)
    _ids: int = 0

    def run(self, scope: Scope, argument: str = "") -> Any:
        head = argument.split()[0].lower() if argument.split() else ""
        if head == "apply":
            return self.apply(scope)
        if head == "cancel":
            return self.cancel(scope)
        if head == "list":
            return ListResult(sessions=[], resolved_key=None)
        return self.preview(scope)

    def preview(self, scope: Scope, key: str | None = None, day: Any = None) -> PreviewResult:
        self.scopes.append(scope)
        if self.before_preview:
            self.before_preview(scope)
        entries = [Entry(title=f"Note {i}", bullets=["a bullet"]) for i in range(self.candidates)]
        pending_id = None
        if entries:
            self._ids += 1
            pending_id = f"p{self._ids}"
            self.pending[_key(scope)] = {
                "id": pending_id,
                "user": scope.user_id,
                "expires": self.clock.now() + self.ttl,
                "applied": False,
            }
        return PreviewResult(
            session_key="agent:main:telegram:group:1:topic:2",
            memory_path=Path("memory/2026-05-15.md"),
            entries=entries,
            markdown=self.markdown,
            pending_id=pending_id,
        )

    def apply(self, scope: Scope, pending_id: str | None = None) -> ApplyResult:
        pending = self._own(scope, pending_id)
        if self.clock.now() > pending["expires"]:
            raise PendingExpiredError("The preview expired.", "预览已过期。")
        result = ApplyResult(
            session_key="k",
            memory_path=Path("memory/2026-05-15.md"),
            entries=[],
            written=not pending["applied"],
            already_applied=pending["applied"],
            added_titles=["Note 0"],
        )
        if not pending["applied"]:
            pending["applied"] = True
            self.writes.append(pending["id"])
        return result

    def cancel(self, scope: Scope, pending_id: str | None = None) -> CancelResult:
        pending = self._own(scope, pending_id)
        del self.pending[_key(scope)]
        return CancelResult(cancelled=True, session_key=str(pending["id"]))

    def _own(self, scope: Scope, pending_id: str | None) -> dict[str, Any]:
        pending = self.pending.get(_key(scope))
        if pending is None or (pending_id and pending["id"] != pending_id):
            raise NoPendingError("No pending preview, run /savenow first.", "没有待确认的预览。")
        if pending["user"] != scope.user_id and not scope.is_admin:
            raise AccessDeniedError("Only the requester may apply.", "只有发起者可以应用。")
        return pending


def _key(scope: Scope) -> str:
    return f"{scope.chat_id}:{scope.thread_id}"
