"""End to end: the standalone bot (real PTB Application, real SaveNowService with the offline
extractor, real recorder) polling the fake Bot API on 127.0.0.1.

The conversation a preview reads is the one the bot itself recorded: users'
messages arrive as updates, the host bot's reply is recorded through
``record_outgoing``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from savenow.telegram import record_outgoing
from tests.fakes.botapi import Call, FakeBotAPI, group_chat, private_chat, user

from .support import ADMIN_ID, ALICE_ID, BOB_ID, GROUP_ID, Bot, run_with_bot

FORUM = group_chat(GROUP_ID, forum=True)
ALICE = user(ALICE_ID, "Alice")
BOB = user(BOB_ID, "Bob")
ADMIN = user(ADMIN_ID, "Admin")
NOTE = "Always restart the gateway after changing gateway.cmd."
SAVED_BULLET = "- Always restart the gateway after changing gateway.cmd"  # the extractor may drop the dot


async def converse(bot: Bot, chat: dict[str, Any], thread_id: int | None) -> None:
    """A short support conversation with one durable rule, recorded by the bot."""
    api = bot.api
    api.push_message(
        chat, ALICE, "The gateway says `unauthorized: gateway token mismatch`.", thread_id=thread_id
    )
    app = bot.plugin.application
    reply = await app.bot.send_message(
        chat["id"],
        "Update GATEWAY_TOKEN in gateway.cmd and restart the gateway.",
        message_thread_id=thread_id,
    )
    await record_outgoing(app, reply)
    api.push_message(
        chat, ALICE, f"That worked. For the notes: {NOTE[0].lower()}{NOTE[1:]}", thread_id=thread_id
    )


async def preview(
    bot: Bot, chat: dict[str, Any], thread_id: int | None, sender: dict[str, Any] = ALICE
) -> Call:
    bot.api.push_message(chat, sender, "/savenow", thread_id=thread_id)
    (call,) = await bot.api.wait_for(
        "sendMessage", lambda c: c.keyboard is not None or "candidates" in c.text
    )
    return call


def button_data(call: Call) -> tuple[str, str]:
    (row,) = call.keyboard or [[]]
    return row[0]["callback_data"], row[1]["callback_data"]


def in_thread(thread_id: int | None) -> Callable[[Call], bool]:
    return lambda call: call.thread_id == thread_id


def test_topic_preview_then_apply_by_the_requester(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        call = await preview(bot, FORUM, 42)
        assert call.thread_id == 42 and call.params["parse_mode"] == "HTML"
        assert "reply_parameters" not in call.params and "reply_to_message_id" not in call.params
        assert "<b>1 candidate</b>" in call.text and NOTE in call.text
        apply_data, cancel_data = button_data(call)
        assert [b["text"] for b in call.keyboard[0]] == ["✅ Apply", "❌ Cancel"]
        assert apply_data.startswith("sn:a:") and cancel_data == "sn:c:" + apply_data[5:]
        assert len(apply_data.encode()) <= 64
        assert bot.memory_text() == ""

        api.push_callback(api.sent_message(call), ALICE, apply_data)
        (answer,) = await api.wait_for("answerCallbackQuery")
        (edit,) = api.calls_to("editMessageText")  # the message is edited before the press is answered
        diff, status = edit.text.rsplit("\n\n", 1)
        assert diff == call.text  # the preview keeps its diff...
        assert status.startswith("✅ Saved to memory/2026-05-15.md: 1 added")  # ...and says what was saved
        assert "\nSaved: “" in status  # by title
        assert edit.keyboard is None and "reply_markup" not in api.sent_message(call)
        assert answer.params["text"].startswith("✅ Saved") and "\n" not in answer.params["text"]
        assert "## 14:00 - " in bot.memory_text() and SAVED_BULLET in bot.memory_text()

    run_with_bot(tmp_path, body)


def test_someone_elses_press_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        call = await preview(bot, FORUM, 42)
        apply_data, cancel_data = button_data(call)
        message = api.sent_message(call)
        api.push_callback(message, BOB, apply_data)
        api.push_callback(message, BOB, cancel_data)
        answers = await api.wait_for("answerCallbackQuery", count=2)
        assert all("Only the person who asked" in a.params["text"] for a in answers)
        assert not api.calls_to("editMessageText") and not api.calls_to("editMessageReplyMarkup")
        assert bot.memory_text() == ""
        assert api.sent_message(call)["reply_markup"]  # the buttons are still there

        api.push_callback(message, ADMIN, apply_data)  # a configured admin may
        await api.wait_for("editMessageText")
        assert NOTE in bot.memory_text()

    run_with_bot(tmp_path, body)


def test_cancel_then_nothing_left_to_apply(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        call = await preview(bot, FORUM, 42)
        _, cancel_data = button_data(call)
        api.push_callback(api.sent_message(call), ALICE, cancel_data)
        (edit,) = await api.wait_for("editMessageText")
        assert edit.text == call.text + "\n\n❌ Cancelled. Nothing was written." and edit.keyboard is None
        await api.wait_for("answerCallbackQuery")  # answered after the edit
        api.push_message(FORUM, ALICE, "/savenow apply", thread_id=42)
        (reply,) = await api.wait_for("sendMessage", lambda c: "No pending preview" in c.text)
        assert reply.thread_id == 42
        assert bot.memory_text() == ""

    run_with_bot(tmp_path, body)


def test_an_expired_preview_says_so_and_loses_its_buttons(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        call = await preview(bot, FORUM, 42)
        apply_data, _ = button_data(call)
        bot.clock.advance(minutes=31)
        api.push_callback(api.sent_message(call), ALICE, apply_data)
        (answer,) = await api.wait_for("answerCallbackQuery")
        (edit,) = api.calls_to("editMessageText")
        assert edit.text.startswith(call.text) and "expired" in edit.text.rsplit("\n\n", 1)[1]
        assert "expired" in answer.params["text"]
        assert edit.keyboard is None
        assert bot.memory_text() == ""

    run_with_bot(tmp_path, body)


def test_a_double_tap_writes_once(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        call = await preview(bot, FORUM, 42)
        apply_data, _ = button_data(call)
        message = api.sent_message(call)
        api.push_callback(message, ALICE, apply_data)
        api.push_callback(message, ALICE, apply_data)
        answers = await api.wait_for("answerCallbackQuery", count=2)
        # Presses run one after the other, each to its end: the second finds the preview applied.
        assert answers[0].params["text"].startswith("✅ Saved")
        assert "already applied" in answers[1].params["text"]
        assert bot.memory_text().count(SAVED_BULLET) == 1
        await api.wait_for("editMessageText")  # the first tap has settled (answer, then the edit)
        api.push_callback(api.sent_message(call), ALICE, apply_data)  # a third, later tap
        answers = await api.wait_for("answerCallbackQuery", count=3)
        assert "already applied" in answers[2].params["text"]
        assert bot.memory_text().count(SAVED_BULLET) == 1
        kept = api.sent_message(call)["text"]
        assert kept.startswith(call.text) and "\n\n✅ Saved" in kept  # the message keeps diff and result
        assert len(api.calls_to("editMessageText")) == 1

    run_with_bot(tmp_path, body)


def test_zero_candidates_sends_no_buttons(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(FORUM, ALICE, "hi there", thread_id=42)
        api.push_message(FORUM, BOB, "hello! how are you?", thread_id=42)
        call = await preview(bot, FORUM, 42)
        assert "<b>0 candidates</b>" in call.text and call.keyboard is None

    run_with_bot(tmp_path, body)


def test_the_general_topic_is_answered_without_a_thread_id(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, None)
        call = await preview(bot, FORUM, None)
        assert call.thread_id is None and call.keyboard
        recorded = json.loads((bot.settings.effective_recorder_dir / "sessions.json").read_text())
        assert f"agent:main:telegram:group:{GROUP_ID}:topic:1" in recorded
        api.push_callback(api.sent_message(call), ALICE, button_data(call)[0])
        await api.wait_for("editMessageText")
        assert NOTE in bot.memory_text()

    run_with_bot(tmp_path, body)


def test_a_private_chat_uses_its_direct_session(tmp_path: Path) -> None:
    chat = private_chat(ALICE_ID)

    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, chat, None)
        call = await preview(bot, chat, None)
        assert call.chat_id == ALICE_ID and call.thread_id is None and call.keyboard
        recorded = json.loads((bot.settings.effective_recorder_dir / "sessions.json").read_text())
        assert set(recorded) == {f"agent:main:telegram:direct:{ALICE_ID}"}

    run_with_bot(tmp_path, body)


def test_typed_apply_works_and_removes_the_preview_buttons(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        call = await preview(bot, FORUM, 42)
        api.push_message(FORUM, ALICE, "/savenow apply", thread_id=42)
        (reply,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("✅ Saved"))
        (edited,) = await api.wait_for("editMessageText")
        assert reply.thread_id == 42
        assert int(edited.params["message_id"]) == api.sent_message(call)["message_id"]
        assert edited.text.startswith(call.text) and edited.keyboard is None  # diff kept, buttons gone
        assert NOTE in bot.memory_text()

    run_with_bot(tmp_path, body)


def test_the_skills_literal_callback_data_acts_as_the_command(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        call = await preview(bot, FORUM, 42)
        api.push_callback(api.sent_message(call), ALICE, "/savenow cancel")
        (edit,) = await api.wait_for("editMessageText")
        assert edit.text.endswith("\n\n❌ Cancelled. Nothing was written.")
        call = await preview_again(bot)
        api.push_callback(api.sent_message(call), ALICE, "/savenow apply")
        await api.wait_for("editMessageText", lambda c: "\n\n✅ Saved" in c.text)
        assert NOTE in bot.memory_text()

    async def preview_again(bot: Bot) -> Call:
        bot.api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
        calls = await bot.api.wait_for("sendMessage", lambda c: c.keyboard is not None, count=2)
        return calls[1]

    run_with_bot(tmp_path, body)


def test_an_edited_old_savenow_does_not_run_again(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        command = api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
        await api.wait_for("sendMessage", lambda c: c.keyboard is not None)
        api.push_edit(command, "/savenow auto")
        api.push_message(FORUM, ALICE, "/savenow list", thread_id=42)  # a later update, to wait on
        await api.wait_for("sendMessage", lambda c: "Sessions for this chat" in c.text)
        assert len(api.calls_to("sendMessage", lambda c: c.keyboard is not None)) == 1
        assert bot.memory_text() == ""

    run_with_bot(tmp_path, body)


def test_a_newer_preview_replaces_the_older_ones_buttons(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        first = await preview(bot, FORUM, 42)
        api.push_message(FORUM, ALICE, "/savenow", thread_id=42)
        calls = await api.wait_for("sendMessage", lambda c: c.keyboard is not None, count=2)
        (removed,) = await api.wait_for("editMessageReplyMarkup")
        assert int(removed.params["message_id"]) == api.sent_message(first)["message_id"]
        api.push_callback(api.sent_message(first), ALICE, button_data(first)[0])
        (edit,) = await api.wait_for("editMessageText")
        assert edit.text.startswith(first.text) and "replaced by a newer one" in edit.text
        assert bot.memory_text() == ""
        assert api.sent_message(calls[1])["reply_markup"]  # the live preview keeps its buttons
        assert len(api.calls_to("editMessageReplyMarkup")) == 1
        api.push_callback(api.sent_message(calls[1]), ALICE, button_data(calls[1])[0])
        await api.wait_for("editMessageText", lambda c: "\n\n✅ Saved" in c.text)
        assert NOTE in bot.memory_text()

    run_with_bot(tmp_path, body)


def test_auto_writes_directly_and_list_shows_the_session(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        await converse(bot, FORUM, 42)
        api.push_message(FORUM, ALICE, "/savenow list", thread_id=42)
        (listing,) = await api.wait_for("sendMessage", lambda c: "Sessions for this chat" in c.text)
        assert f"<code>agent:main:telegram:group:{GROUP_ID}:topic:42</code>" in listing.text
        api.push_message(FORUM, ALICE, "/savenow auto", thread_id=42)
        await api.wait_for("sendMessage", lambda c: c.text.startswith("✅ Saved"))
        assert NOTE in bot.memory_text()
        assert all(c.keyboard is None for c in api.calls_to("sendMessage"))

    run_with_bot(tmp_path, body)


def test_unknown_session_key_gets_the_services_message(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(
            FORUM, user(BOB_ID, "鲍勃", language_code="zh"), "/savenow ../etc/passwd", thread_id=9
        )
        (reply,) = await api.wait_for("sendMessage")
        assert "路径" in reply.text and reply.thread_id == 9

    run_with_bot(tmp_path, body)
