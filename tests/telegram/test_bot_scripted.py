"""The Telegram layer's own behaviour, with a scripted service where the real one cannot stand in.

A scripted service lets these tests block one topic's extraction, produce a
preview long enough to split, and count writes exactly. Everything else is
real: PTB's Application polling the fake Bot API, the recorder writing files.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from datetime import UTC
from pathlib import Path

import pytest

from savenow.clock import Clock
from savenow.service import Scope
from savenow.sessions.openclaw import OpenClawFileStore
from savenow.telegram import record_outgoing
from savenow.telegram.render import CHUNK_LIMIT, telegram_length
from tests.fakes.botapi import Call, FakeBotAPI, group_chat, private_chat, user

from .support import (
    ALICE_ID,
    BOB_ID,
    GROUP_ID,
    PREVIEW_MD,
    START,
    Bot,
    ScriptedService,
    eventually,
    run,
    running_bot,
)

FORUM = group_chat(GROUP_ID, forum=True)
ALICE = user(ALICE_ID, "Alice")
BOB = user(BOB_ID, "Bob")


def scripted(**kwargs: object) -> tuple[Clock, ScriptedService]:
    clock = Clock(tz=UTC, fixed=START)
    return clock, ScriptedService(clock, **kwargs)  # type: ignore[arg-type]


def in_topic(thread: int) -> Callable[[Call], bool]:
    return lambda call: call.thread_id == thread


def recorded_texts(bot: Bot, key: str) -> list[str]:
    store = OpenClawFileStore(bot.settings.effective_recorder_dir, source="recorder")
    info = store.get(key)
    return [] if info is None else [m.text for m in store.read_messages(info, 150).messages]


def recorded_keys(bot: Bot) -> set[str]:
    path = bot.settings.effective_recorder_dir / "sessions.json"
    return set(json.loads(path.read_text())) if path.exists() else set()


TOPIC_KEY = f"agent:main:telegram:group:{GROUP_ID}:topic:42"


# -- previews ---------------------------------------------------------------------------------


def test_long_preview_is_split_with_the_keyboard_on_the_last_chunk_only(tmp_path: Path) -> None:
    long_md = PREVIEW_MD + "\n" + "\n".join(f"- detail {i}: <tag> & " + "x" * 150 for i in range(40))
    clock, service = scripted(markdown=long_md)

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock):
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                calls = await api.wait_for("sendMessage", count=2)
                await asyncio.sleep(0)
                calls = api.calls_to("sendMessage")
                assert len(calls) == 2
                assert all(telegram_length(c.text) <= CHUNK_LIMIT for c in calls)
                assert all(c.thread_id == 42 and c.params["parse_mode"] == "HTML" for c in calls)
                assert calls[0].keyboard is None
                assert [b["text"] for b in calls[1].keyboard[0]] == ["✅ Apply", "❌ Cancel"]
                assert "&lt;tag&gt; &amp;" in calls[0].text
                assert not api.calls_to("sendDocument")

    run(body())


def test_very_long_preview_is_shortened_and_the_full_diff_attached(tmp_path: Path) -> None:
    huge_md = PREVIEW_MD + "\n" + "\n".join(f"- detail {i} " + "y" * 300 for i in range(200))
    clock, service = scripted(markdown=huge_md)

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock):
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                (message,) = await api.wait_for("sendMessage")
                (document,) = api.calls_to("sendDocument")
                name, content = document.files["document"]
                assert name == "savenow-preview-2026-05-15.md" and content.decode() == huge_md
                assert document.thread_id == 42
                assert "full diff is in the attached file" in message.text
                assert telegram_length(message.text) <= CHUNK_LIMIT and message.keyboard
                assert api.method_log().index("sendDocument") < api.method_log().index("sendMessage")

    run(body())


def test_zero_candidates_has_no_keyboard(tmp_path: Path) -> None:
    clock, service = scripted(
        candidates=0, markdown="### /savenow preview\n\n**0 candidates** — nothing durable."
    )

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock):
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                (call,) = await api.wait_for("sendMessage")
                assert call.keyboard is None and "0 candidates" in call.text

    run(body())


# -- never block ----------------------------------------------------------------------------


def test_a_slow_extraction_in_one_topic_does_not_delay_another_chat(tmp_path: Path) -> None:
    release = threading.Event()

    def slow_in_topic_7(scope: Scope) -> None:
        if scope.thread_id == "7":
            release.wait(20)

    clock, service = scripted(before_preview=slow_in_topic_7)

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock):
                api.push_message(FORUM, ALICE, "/savenow", thread_id=7)
                api.push_message(FORUM, BOB, "/savenow", thread_id=8)
                api.push_message(private_chat(ALICE_ID), ALICE, "/savenow")
                await api.wait_for("sendMessage", in_topic(8))
                await api.wait_for("sendMessage", lambda c: c.chat_id == ALICE_ID)
                assert not api.calls_to("sendMessage", in_topic(7))  # still extracting
                release.set()
                await api.wait_for("sendMessage", in_topic(7))

    run(body())


# -- rate limits and network errors ---------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # raised inside PTB
def test_a_429_is_retried_after_retry_after_then_succeeds(tmp_path: Path) -> None:
    clock, service = scripted()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock):
                api.fail_next("sendMessage", status=429, retry_after=1)
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                (sent,) = await api.wait_for("sendMessage")
                attempts = [c for c in api.calls if c.method == "sendMessage"]
                assert [c.status for c in attempts] == [429, 200]
                assert attempts[0].params == sent.params

    run(body())


def test_a_network_error_is_logged_and_the_bot_keeps_going(tmp_path: Path) -> None:
    clock, service = scripted()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock):
                api.fail_next("sendMessage", status=502, retry_after=None)
                api.fail_next("getUpdates", status=502, retry_after=None)
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                # Both failures must be used up before the next command, or they could hit it instead.
                await api.wait_for_attempt("sendMessage", 502)
                await api.wait_for_attempt("getUpdates", 502)
                api.push_message(FORUM, ALICE, "/savenow", thread_id=43)
                await api.wait_for("sendMessage", in_topic(43))
                assert next(c.status for c in api.calls if c.method == "sendMessage") == 502

    run(body())


# -- buttons, with the scripted service's exact write count ------------------------------------


def test_a_redelivered_press_is_handled_once(tmp_path: Path) -> None:
    clock, service = scripted()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock):
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                (preview,) = await api.wait_for("sendMessage")
                press = api.push_callback(api.sent_message(preview), ALICE, "sn:a:p1")
                api.push_update(dict(press))  # the same update id again
                await api.wait_for("answerCallbackQuery")  # the press is answered last, after the edit
                api.push_message(FORUM, ALICE, "hello", thread_id=42)  # a later update, to flush the queue
                await eventually(lambda: recorded_texts_count(api) > 0)
                assert len(api.calls_to("answerCallbackQuery")) == 1
                assert service.writes == ["p1"]

    def recorded_texts_count(api: FakeBotAPI) -> int:
        path = tmp_path / "workspace" / ".savenow" / "sessions" / "sessions.json"
        return 1 if path.exists() else 0

    run(body())


def test_chinese_users_get_chinese_buttons_and_replies(tmp_path: Path) -> None:
    clock, service = scripted()
    zh_alice = user(ALICE_ID, "爱丽丝", language_code="zh-hans")

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock):
                api.push_message(FORUM, zh_alice, "/savenow", thread_id=42)
                (preview,) = await api.wait_for("sendMessage")
                assert [b["text"] for b in preview.keyboard[0]] == ["✅ 应用", "❌ 取消"]
                api.push_callback(api.sent_message(preview), zh_alice, "sn:c:p1")
                (edit,) = await api.wait_for("editMessageText")
                assert edit.text.endswith("\n\n❌ 已取消，没有写入任何内容。")

    run(body())


def test_the_language_setting_beats_the_users_telegram_language(tmp_path: Path) -> None:
    clock, service = scripted()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock, language="zh"):
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                (preview,) = await api.wait_for("sendMessage")
                assert preview.keyboard[0][0]["text"] == "✅ 应用"

    run(body())


# -- the recorder ---------------------------------------------------------------------------------


def test_recorder_keeps_topics_general_and_direct_chats_apart(tmp_path: Path) -> None:
    clock, service = scripted()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock) as bot:
                api.push_message(FORUM, ALICE, "topic message", thread_id=42)
                api.push_message(FORUM, BOB, "general message")
                api.push_message(
                    group_chat(-100777), BOB, "plain group message", thread_id=555
                )  # a reply thread
                api.push_message(private_chat(ALICE_ID), ALICE, "direct message")
                api.push_message(FORUM, ALICE, "/savenow list", thread_id=42)  # not conversation
                direct_key = f"agent:main:telegram:direct:{ALICE_ID}"
                await eventually(lambda: direct_key in recorded_keys(bot) and len(recorded_keys(bot)) == 4)
                await api.wait_for("sendMessage")
                assert recorded_keys(bot) == {
                    TOPIC_KEY,
                    f"agent:main:telegram:group:{GROUP_ID}:topic:1",
                    "agent:main:telegram:group:-100777",
                    direct_key,
                }
                assert recorded_texts(bot, TOPIC_KEY) == ["topic message"]
                assert recorded_texts(bot, direct_key) == ["direct message"]

    run(body())


def test_recorder_records_outgoing_messages_edits_and_new_sessions(tmp_path: Path) -> None:
    clock, service = scripted()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock) as bot:
                first = api.push_message(FORUM, ALICE, "gateway token mismatch?", thread_id=42)
                await eventually(lambda: recorded_texts(bot, TOPIC_KEY) == ["gateway token mismatch?"])
                app = bot.plugin.application
                sent = await app.bot.send_message(
                    GROUP_ID, "Update gateway.cmd and restart.", message_thread_id=42
                )
                await record_outgoing(app, sent)
                assert recorded_texts(bot, TOPIC_KEY) == [
                    "gateway token mismatch?",
                    "Update gateway.cmd and restart.",
                ]

                api.push_edit(first, "gateway token mismatch after upgrade?")
                await eventually(
                    lambda: recorded_texts(bot, TOPIC_KEY)[0] == "gateway token mismatch after upgrade?"
                )

                session_file = _session_file(bot, TOPIC_KEY)
                api.push_message(FORUM, ALICE, "/new", thread_id=42)
                await eventually(lambda: _session_file(bot, TOPIC_KEY) != session_file)
                assert recorded_texts(bot, TOPIC_KEY) == []
                api.push_message(FORUM, ALICE, "fresh start", thread_id=42)
                await eventually(lambda: recorded_texts(bot, TOPIC_KEY) == ["fresh start"])

                clock.advance(hours=25)  # longer than the idle gap (24 h by default)
                before = _session_file(bot, TOPIC_KEY)
                api.push_message(FORUM, ALICE, "next day", thread_id=42)
                await eventually(lambda: _session_file(bot, TOPIC_KEY) != before)
                assert recorded_texts(bot, TOPIC_KEY) == ["next day"]

    run(body())


def _session_file(bot: Bot, key: str) -> str:
    data = json.loads((bot.settings.effective_recorder_dir / "sessions.json").read_text())
    return str(data[key]["sessionFile"])


def test_savenow_waits_for_the_messages_before_it_to_be_recorded(tmp_path: Path) -> None:
    seen: list[list[str]] = []
    holder: dict[str, Bot] = {}

    def capture(scope: Scope) -> None:
        seen.append(recorded_texts(holder["bot"], TOPIC_KEY))

    clock, service = scripted(before_preview=capture)

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api, service=service, clock=clock) as bot:
                holder["bot"] = bot
                for i in range(20):
                    api.push_message(FORUM, ALICE, f"message {i}", thread_id=42)
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                await api.wait_for("sendMessage")
                assert seen == [[f"message {i}" for i in range(20)]]

    run(body())


# -- access control ---------------------------------------------------------------------------------


def test_a_disallowed_chat_is_refused_politely_and_nothing_is_recorded(tmp_path: Path) -> None:
    clock, service = scripted()
    allowed_chat = group_chat(-100555, forum=True)

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(
                tmp_path, api=api, service=service, clock=clock, allowed_chat_ids=[-100555]
            ) as bot:
                api.push_message(FORUM, ALICE, "secret plans", thread_id=42)
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                (refusal,) = await api.wait_for("sendMessage")
                assert refusal.thread_id == 42 and "not enabled" in refusal.text
                api.push_message(allowed_chat, ALICE, "allowed talk", thread_id=3)
                allowed_key = "agent:main:telegram:group:-100555:topic:3"
                await eventually(lambda: allowed_key in recorded_keys(bot))
                assert recorded_keys(bot) == {allowed_key}
                assert service.scopes == []

    run(body())


def test_a_disallowed_user_is_refused_in_an_allowed_chat(tmp_path: Path) -> None:
    clock, service = scripted()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(
                tmp_path, api=api, service=service, clock=clock, allowed_user_ids=[ALICE_ID]
            ):
                api.push_message(FORUM, BOB, "/savenow", thread_id=42)
                (refusal,) = await api.wait_for("sendMessage")
                assert "not enabled" in refusal.text and refusal.keyboard is None
                api.push_message(private_chat(BOB_ID), BOB, "/savenow")
                await api.wait_for("sendMessage", lambda c: c.chat_id == BOB_ID)
                assert service.scopes == []
                api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
                await api.wait_for("sendMessage", lambda c: c.keyboard is not None)
                assert [s.user_id for s in service.scopes] == [str(ALICE_ID)]

    run(body())
