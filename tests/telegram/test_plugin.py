"""savenow inside a host bot: ``register`` adds handlers without taking the host's away."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, timedelta
from pathlib import Path

import pytest
from telegram import Update
from telegram.ext import Application, CommandHandler, ContextTypes, MessageHandler, filters

from savenow.clock import Clock
from savenow.telegram import record_outgoing, register
from savenow.telegram.plugin import SaveNowPlugin
from tests.fakes.botapi import FakeBotAPI, group_chat, user

from .support import ALICE_ID, GROUP_ID, START, ScriptedService, make_settings, run

FORUM = group_chat(GROUP_ID, forum=True)
ALICE = user(ALICE_ID)


@asynccontextmanager
async def host_bot(
    tmp_path: Path, api: FakeBotAPI, *, echo_filter: filters.BaseFilter = filters.ALL
) -> AsyncIterator[tuple[Application, SaveNowPlugin]]:
    """A host bot as someone else wrote it: its own handlers, no rate limiter, no savenow Defaults."""
    application = Application.builder().token(api.token).base_url(api.base_url).build()

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        sent = await context.bot.send_message(update.effective_chat.id, "host says hi")
        await record_outgoing(context, sent)

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        sent = await update.message.reply_text(f"echo: {update.message.text}", do_quote=False)
        await record_outgoing(context.application, sent)

    application.add_handler(CommandHandler("start", start))
    application.add_handler(MessageHandler(echo_filter, echo))  # a catch-all in the host's group 0
    clock = Clock(tz=UTC, fixed=START)
    plugin = register(application, make_settings(tmp_path, api), service=ScriptedService(clock), clock=clock)
    async with application:
        assert application.updater is not None
        await application.updater.start_polling(timeout=timedelta(seconds=1))
        await application.start()
        try:
            yield application, plugin
        finally:
            await application.updater.stop()
            await application.stop()
            plugin.close()


def test_host_handlers_and_savenow_both_run(tmp_path: Path) -> None:
    async def body() -> None:
        with FakeBotAPI() as api:
            async with host_bot(tmp_path, api) as (_app, plugin):
                api.push_message(FORUM, ALICE, "hello", thread_id=5)
                await api.wait_for("sendMessage", lambda c: c.text == "echo: hello")
                api.push_message(FORUM, ALICE, "/savenow", thread_id=5)
                await api.wait_for("sendMessage", lambda c: c.keyboard is not None and c.thread_id == 5)
                await api.wait_for(
                    "sendMessage", lambda c: c.text == "echo: /savenow"
                )  # the host still sees it
                key = f"agent:main:telegram:group:{GROUP_ID}:topic:5"
                expected = ["hello", "echo: hello", "echo: /savenow"]
                for _ in range(1000):
                    texts = await asyncio.to_thread(_texts, plugin, key)
                    if texts == expected:
                        break
                    await asyncio.sleep(0.005)
                assert texts == expected

    run(body())


def _texts(plugin: SaveNowPlugin, key: str) -> list[str]:
    from savenow.sessions.openclaw import OpenClawFileStore

    store = OpenClawFileStore(plugin.settings.effective_recorder_dir, source="recorder")
    info = store.get(key)
    return [] if info is None else [m.text for m in store.read_messages(info, 150).messages]


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # raised inside PTB
def test_without_a_rate_limiter_savenow_retries_429_itself(tmp_path: Path) -> None:
    async def body() -> None:
        with FakeBotAPI() as api:
            async with host_bot(tmp_path, api, echo_filter=filters.TEXT & ~filters.COMMAND):
                api.fail_next("sendMessage", status=429, retry_after=1)
                api.push_message(FORUM, ALICE, "/savenow", thread_id=5)
                await api.wait_for("sendMessage", lambda c: c.keyboard is not None)
                attempts = [c for c in api.calls if c.method == "sendMessage" and "reply_markup" in c.params]
                assert [c.status for c in attempts] == [429, 200]

    run(body())


def test_record_outgoing_needs_register_first() -> None:
    async def body() -> None:
        application = Application.builder().token("1:x").build()
        with pytest.raises(RuntimeError, match="register"):
            await record_outgoing(application, object())  # type: ignore[arg-type]

    run(body())


def test_register_twice_is_refused(tmp_path: Path) -> None:
    with FakeBotAPI() as api:
        application = Application.builder().token(api.token).build()
        settings = make_settings(tmp_path, api)
        clock = Clock(tz=UTC, fixed=START)
        plugin = register(application, settings, service=ScriptedService(clock), clock=clock)
        with pytest.raises(RuntimeError, match="already registered"):
            register(application, settings, service=ScriptedService(clock), clock=clock)
        plugin.close()
