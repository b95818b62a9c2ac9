"""What a user sees in the chat, end to end: groups and topics, Chinese, the preview's life, limits.

The real bot, service and recorder against the fake Bot API, except where a
scripted service must block an extraction (busy topics, a full queue, a stop
during a burst).
"""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC
from pathlib import Path
from typing import Any

from savenow.clock import Clock
from savenow.service import Scope
from savenow.telegram import record_outgoing
from tests.fakes.botapi import Call, FakeBotAPI, group_chat, private_chat, user
from tests.sessions.storegen import StoreBuilder, assistant
from tests.sessions.storegen import user as said

from .support import (
    ALICE_ID,
    BOB_ID,
    GROUP_ID,
    START,
    Bot,
    ScriptedService,
    eventually,
    run,
    run_with_bot,
    running_bot,
)

FORUM = group_chat(GROUP_ID, forum=True)
PLAIN_GROUP = group_chat(-100777)
ALICE = user(ALICE_ID, "Alice")
ZH_ALICE = user(ALICE_ID, "爱丽丝", language_code="zh-hans")
BOB = user(BOB_ID, "Bob")
RULE = "Always restart the gateway after changing gateway.cmd."


async def converse(
    bot: Bot, chat: dict[str, object], thread_id: int | None, sender: dict[str, object] = ALICE
) -> None:
    api = bot.api
    api.push_message(
        chat, sender, "The gateway says `unauthorized: gateway token mismatch`.", thread_id=thread_id
    )
    app = bot.plugin.application
    reply = await app.bot.send_message(
        chat["id"],
        "Update GATEWAY_TOKEN in gateway.cmd and restart the gateway.",
        message_thread_id=thread_id,
    )
    await record_outgoing(app, reply)
    api.push_message(
        chat, sender, f"That worked. For the notes: {RULE[0].lower()}{RULE[1:]}", thread_id=thread_id
    )


def is_preview(call: Call) -> bool:
    return "/savenow preview" in call.text or "/savenow 预览" in call.text


# -- groups and topics (DESIGN §3) --------------------------------------------------------------


def test_a_group_without_topics_uses_its_group_session(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, PLAIN_GROUP, None)
        api.push_message(PLAIN_GROUP, ALICE, "/savenow")
        (preview,) = await api.wait_for("sendMessage", is_preview)
        assert preview.keyboard is not None and RULE in preview.text
        api.push_callback(api.sent_message(preview), ALICE, preview.keyboard[0][0]["callback_data"])
        await api.wait_for("answerCallbackQuery")
        assert RULE.rstrip(".") in bot.memory_text()

    run_with_bot(tmp_path, body)


def test_the_general_topic_uses_the_chats_session_without_a_topic(tmp_path: Path) -> None:
    store = StoreBuilder(tmp_path / "openclaw-sessions")
    store.add(
        f"agent:main:telegram:group:{GROUP_ID}",
        [
            said("Deploys fail with permission denied."),
            assistant("Run it as the deploy user."),
            said("That fixed it. For the notes: always deploy as the deploy user."),
        ],
    )
    store.write()

    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(FORUM, ALICE, "/savenow")  # General: no message_thread_id in a forum
        (preview,) = await api.wait_for("sendMessage", is_preview)
        assert preview.thread_id is None and preview.keyboard is not None and "deploy" in preview.text

    run_with_bot(tmp_path, body)


def test_when_nothing_resolves_the_reply_shows_a_key_to_copy(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(FORUM, ALICE, "hello", thread_id=42)  # recorded: the chat has a session now
        api.push_message(FORUM, ALICE, "/savenow", thread_id=99)
        (refusal,) = await api.wait_for("sendMessage")
        assert (
            f"agent:main:telegram:group:{GROUP_ID}:topic:" in refusal.text and "/savenow list" in refusal.text
        )
        api.push_message(FORUM, ALICE, "/savenow list", thread_id=99)
        listing = (await api.wait_for("sendMessage", count=2))[1]
        assert f"<code>agent:main:telegram:group:{GROUP_ID}:topic:99</code>" in listing.text

    run_with_bot(tmp_path, body)


# -- Chinese ------------------------------------------------------------------------------------


def test_a_chinese_user_gets_a_chinese_preview_and_confirmation(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42, ZH_ALICE)
        api.push_message(FORUM, ZH_ALICE, "/savenow", thread_id=42)
        (preview,) = await api.wait_for("sendMessage", is_preview)
        assert "<b>/savenow 预览 — memory/2026-05-15.md</b>" in preview.text
        assert "条候选</b> → 新增 1" in preview.text and "未写入任何内容" in preview.text
        assert "按钮 30 分钟后失效" in preview.text and "No write performed" not in preview.text
        assert "`" not in preview.text
        api.push_callback(api.sent_message(preview), ZH_ALICE, preview.keyboard[0][0]["callback_data"])
        (answer,) = await api.wait_for("answerCallbackQuery")
        assert answer.params["text"].startswith("✅ 已写入 memory/2026-05-15.md：新增 1 条")
        (edit,) = api.calls_to("editMessageText")
        assert "已保存：“" in edit.text

    run_with_bot(tmp_path, body)


# -- the preview's life -------------------------------------------------------------------------


def test_a_preview_with_nothing_new_has_no_apply_button_and_says_so(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        api.push_message(FORUM, ALICE, "/savenow auto", thread_id=42)
        await api.wait_for("sendMessage", lambda c: c.text.startswith("✅ Saved"))
        api.push_message(FORUM, ALICE, "/savenow", thread_id=42)  # the same conversation again
        (preview,) = await api.wait_for("sendMessage", is_preview)
        assert "SKIP" in preview.text and "ADD" not in preview.text
        assert preview.keyboard is None and "Nothing new to save" in preview.text
        assert "Buttons expire" not in preview.text

    run_with_bot(tmp_path, body)


def test_auto_answers_with_what_it_wrote(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        api.push_message(FORUM, ALICE, "/savenow auto", thread_id=42)
        (reply,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("✅"))
        assert reply.text.startswith("✅ Saved to memory/2026-05-15.md: 1 added")
        assert "\nSaved: “" in reply.text  # the titles it wrote
        sent = api.calls_to("sendMessage")
        assert not any("No write performed" in c.text or "Buttons expire" in c.text for c in sent)
        assert RULE.rstrip(".") in bot.memory_text()

    run_with_bot(tmp_path, body)


def test_help_answers_with_usage(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(FORUM, ALICE, "/savenow help", thread_id=42)
        (usage,) = await api.wait_for("sendMessage")
        assert "/savenow auto" in usage.text and "/savenow undo" in usage.text and "`" not in usage.text
        api.push_message(private_chat(ALICE_ID), ALICE, "/help")
        (again,) = await api.wait_for("sendMessage", lambda c: c.chat_id == ALICE_ID)
        assert again.text == usage.text

    run_with_bot(tmp_path, body)


def test_typing_shows_at_once_and_an_apply_after_cancel_says_what_happened(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
        await api.wait_for("sendMessage", is_preview)
        (typing,) = await api.wait_for("sendChatAction")  # sent as the extraction starts
        assert typing.params["action"] == "typing" and typing.thread_id == 42
        api.push_message(FORUM, ALICE, "/savenow cancel", thread_id=42)
        await api.wait_for("sendMessage", lambda c: c.text.startswith("❌ Cancelled"))
        api.push_message(FORUM, ALICE, "/savenow cancel", thread_id=42)
        await api.wait_for("sendMessage", lambda c: "No pending preview" in c.text)

    run_with_bot(tmp_path, body)


# -- limits -------------------------------------------------------------------------------------


def blocking_service(release: threading.Event, started: threading.Semaphore) -> tuple[Clock, ScriptedService]:
    clock = Clock(tz=UTC, fixed=START)

    def block(scope: Scope) -> None:
        started.release()
        release.wait(30)

    return clock, ScriptedService(clock, before_preview=block)


def test_one_extraction_per_topic_and_a_bounded_queue(tmp_path: Path) -> None:
    release, started = threading.Event(), threading.Semaphore(0)
    clock, service = blocking_service(release, started)

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock, max_pending=2):
                api.push_message(FORUM, ALICE, "/savenow", thread_id=1001)
                await asyncio.to_thread(started.acquire, True, 10)
                api.push_message(FORUM, BOB, "/savenow", thread_id=1001)  # the same topic: told so
                (busy,) = await api.wait_for("sendMessage", lambda c: c.thread_id == 1001)
                assert "already running in this topic" in busy.text
                api.push_message(FORUM, BOB, "/savenow", thread_id=1002)
                await asyncio.to_thread(started.acquire, True, 10)
                api.push_message(FORUM, BOB, "/savenow", thread_id=1003)  # two running: the queue is full
                (full,) = await api.wait_for("sendMessage", lambda c: c.thread_id == 1003)
                assert "busy with many requests" in full.text
                release.set()
                await api.wait_for("sendMessage", lambda c: c.keyboard is not None, count=2)
                assert len(service.scopes) == 2

    run(body())


def test_a_user_waits_out_the_cooldown(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
        await api.wait_for("sendMessage", is_preview)
        api.push_message(FORUM, ALICE, "/savenow", thread_id=43)
        (wait,) = await api.wait_for("sendMessage", lambda c: c.thread_id == 43)
        assert "Please wait 30 s" in wait.text
        bot.clock.advance(seconds=30)
        api.push_message(FORUM, ALICE, "/savenow", thread_id=43)
        await api.wait_for("sendMessage", lambda c: c.thread_id == 43, count=2)
        assert "Please wait" not in api.calls_to("sendMessage", lambda c: c.thread_id == 43)[1].text

    run_with_bot(tmp_path, body, cooldown_seconds=30)


def test_the_bot_stops_at_once_after_a_burst_with_extractions_still_running(tmp_path: Path) -> None:
    release, started = threading.Event(), threading.Semaphore(0)
    clock, service = blocking_service(release, started)

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock, service_workers=4) as bot:
                for topic in range(20):
                    for _ in range(10):
                        api.push_message(FORUM, ALICE, "/savenow", thread_id=2000 + topic)
                for _ in range(4):  # every worker is stuck in an extraction
                    await asyncio.to_thread(started.acquire, True, 10)
                application = bot.plugin.application
            # Leaving running_bot stopped the bot although no extraction was ever released.
            assert not application.running and not release.is_set()
            assert len(service.scopes) <= 4 + 2 * 4  # workers, then the bounded queue; never all 200
        release.set()

    run(body())


def test_an_unpressed_preview_says_it_expired_when_its_time_is_up(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
        (preview,) = await api.wait_for("sendMessage", is_preview)
        application = bot.plugin.application

        def expiry_jobs() -> list[Any]:
            return [
                j for j in application.job_queue.jobs() if j.name and j.name.startswith("savenow-expire:")
            ]

        await eventually(lambda: bool(expiry_jobs()))  # scheduled right after the preview is sent
        (job,) = expiry_jobs()
        assert job.next_t is not None  # due when the TTL is over (30 min): run it now, not after a wait
        bot.clock.advance(minutes=31)
        await job.run(application)
        (edit,) = await api.wait_for("editMessageText")
        assert (
            edit.text
            == preview.text + "\n\n⌛ Expired after 30 min; nothing was written. Send /savenow again."
        )
        assert edit.keyboard is None and "reply_markup" not in api.sent_message(preview)
        api.push_message(FORUM, ALICE, "/savenow apply", thread_id=42)
        await api.wait_for("sendMessage", lambda c: "expired" in c.text.lower() and c.text != edit.text)
        assert bot.memory_text() == ""

    run_with_bot(tmp_path, body)
