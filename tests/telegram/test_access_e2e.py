"""Who may do what (DESIGN §3.1), end to end: the real bot and service against the fake Bot API.

OpenClaw's store (``sessions_dir``) holds the owner's main session with a private
fact, another group's topic, and the sessions the tests' chats resolve to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.fakes.botapi import FakeBotAPI, group_chat, private_chat, user
from tests.sessions.storegen import StoreBuilder, assistant
from tests.sessions.storegen import user as said

from .support import ADMIN_ID, ALICE_ID, BOB_ID, GROUP_ID, Bot, run_with_bot

FORUM = group_chat(GROUP_ID, forum=True)
OTHER_GROUP = -1009999999999
STRANGER_ID = 4242
ALICE = user(ALICE_ID, "Alice")
BOB = user(BOB_ID, "Bob")
ADMIN = user(ADMIN_ID, "Admin")
STRANGER = user(STRANGER_ID, "Stranger")
SECRET = "The owner's bank PIN is 8812"
MAIN_KEY = "agent:main:main"
OTHER_KEY = f"agent:main:telegram:group:{OTHER_GROUP}:topic:3"
DURABLE = [
    said("The deploy failed with `permission denied` on /srv/app."),
    assistant("Run the deploy as the deploy user: sudo -u deploy ./deploy.sh fixes it."),
    said("That worked. For the notes: always deploy as the deploy user."),
]


def openclaw_store(tmp_path: Path, **extra: list[dict[str, Any]]) -> None:
    store = StoreBuilder(tmp_path / "openclaw-sessions")
    store.add(MAIN_KEY, [said(f"Remember: {SECRET}."), assistant("Noted.")], chatType="direct")
    store.add(OTHER_KEY, [said("Other group: the wifi password is hunter2."), assistant("ok")])
    for key, lines in extra.items():
        store.add(key.replace("__", ":"), lines)
    store.write()


def nothing_written(bot: Bot) -> bool:
    memory = bot.settings.memory_dir
    recorded = bot.settings.effective_recorder_dir / "sessions.json"
    return not (memory.exists() and any(memory.iterdir())) and not recorded.exists()


def test_a_stranger_with_the_default_config_gets_their_id_and_nothing_else(tmp_path: Path) -> None:
    openclaw_store(tmp_path)

    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(private_chat(STRANGER_ID), STRANGER, "hello bot")
        api.push_message(private_chat(STRANGER_ID), STRANGER, "/savenow")
        (reply,) = await api.wait_for("sendMessage")
        assert SECRET not in reply.text and "8812" not in reply.text
        assert f"Your Telegram user id is {STRANGER_ID}" in reply.text
        assert f"allowed_user_ids: [{STRANGER_ID}]" in reply.text  # the YAML line
        assert f"SAVENOW_TELEGRAM__ALLOWED_USER_IDS='[{STRANGER_ID}]'" in reply.text  # the env form
        assert reply.keyboard is None
        for command in ("/savenow auto", "/savenow list", f"/savenow {MAIN_KEY}", "/savenow undo"):
            api.push_message(private_chat(STRANGER_ID), STRANGER, command)
        replies = await api.wait_for("sendMessage", count=5)
        assert all(f"user id is {STRANGER_ID}" in r.text and "8812" not in r.text for r in replies)
        api.push_message(FORUM, STRANGER, "/savenow", thread_id=42)  # in a group: the same first-run answer
        await api.wait_for("sendMessage", lambda c: c.thread_id == 42 and str(STRANGER_ID) in c.text)
        api.push_callback(api.sent_message(reply), STRANGER, "sn:a:forged12")  # a forged Apply
        (answer,) = await api.wait_for("answerCallbackQuery")
        assert str(STRANGER_ID) in answer.params["text"]
        assert nothing_written(bot)

    run_with_bot(tmp_path, body, admin_user_ids=[], allowed_user_ids=[])


def test_a_zh_stranger_is_answered_in_chinese(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(private_chat(STRANGER_ID), user(STRANGER_ID, "陌生人", "zh-hans"), "/savenow")
        (reply,) = await api.wait_for("sendMessage")
        assert f"你的 Telegram 用户 id 是 {STRANGER_ID}" in reply.text
        assert f"allowed_user_ids: [{STRANGER_ID}]" in reply.text

    run_with_bot(tmp_path, body, admin_user_ids=[], allowed_user_ids=[])


def test_a_member_cannot_name_another_chats_key_nor_the_main_key(tmp_path: Path) -> None:
    openclaw_store(tmp_path)

    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(FORUM, ALICE, f"/savenow {OTHER_KEY}", thread_id=42)
        (refused,) = await api.wait_for("sendMessage")
        assert "does not belong to this chat" in refused.text and "hunter2" not in refused.text
        api.push_message(FORUM, ALICE, f"/savenow auto {OTHER_KEY}", thread_id=42)
        await api.wait_for("sendMessage", count=2)  # one /savenow at a time in a topic
        api.push_message(FORUM, ALICE, f"/savenow {MAIN_KEY}", thread_id=42)
        replies = await api.wait_for("sendMessage", count=3)
        assert "does not belong to this chat" in replies[1].text
        assert "main session" in replies[2].text and "8812" not in replies[2].text
        assert not bot.settings.memory_dir.exists()
        assert all(c.keyboard is None for c in replies)
        api.push_message(FORUM, ADMIN, f"/savenow {OTHER_KEY}", thread_id=42)  # admins may name any key
        (preview,) = await api.wait_for("sendMessage", lambda c: "candidate" in c.text)
        assert "### " not in preview.text and "/savenow preview" in preview.text

    run_with_bot(tmp_path, body)


def test_a_member_may_name_a_key_of_their_own_chat(tmp_path: Path) -> None:
    own_topic = f"agent:main:telegram:group:{GROUP_ID}:topic:7"
    openclaw_store(tmp_path, **{own_topic.replace(":", "__"): DURABLE})

    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(FORUM, ALICE, f"/savenow {own_topic}", thread_id=42)
        (preview,) = await api.wait_for("sendMessage")
        assert preview.keyboard is not None and "deploy" in preview.text

    run_with_bot(tmp_path, body)


def test_a_dm_from_a_non_admin_reads_their_own_session_never_main(tmp_path: Path) -> None:
    openclaw_store(tmp_path)
    bob_dm = private_chat(BOB_ID, "Bob")

    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(bob_dm, BOB, "/savenow")  # Bob has no direct session yet: main is not his
        (refused,) = await api.wait_for("sendMessage")
        assert "8812" not in refused.text and refused.keyboard is None
        assert f"agent:main:telegram:direct:{BOB_ID}" in refused.text  # a key he can copy
        for text in DURABLE_CHAT:
            api.push_message(bob_dm, BOB, text)
        api.push_message(bob_dm, BOB, "/savenow")
        (preview,) = await api.wait_for("sendMessage", lambda c: c.keyboard is not None)
        assert "8812" not in preview.text and "deploy" in preview.text
        api.push_message(private_chat(ADMIN_ID, "Admin"), ADMIN, "/savenow")  # an admin's DM: main
        (main,) = await api.wait_for("sendMessage", lambda c: c.chat_id == ADMIN_ID)
        assert "8812" in main.text

    run_with_bot(tmp_path, body)


DURABLE_CHAT = [
    "The deploy failed with `permission denied` on /srv/app.",
    "Fixed: running it as the deploy user (sudo -u deploy ./deploy.sh) works.",
    "For the notes: always deploy as the deploy user with sudo -u deploy ./deploy.sh.",
]


def test_only_the_requester_or_an_admin_undoes_a_write_and_undo_goes_in_order(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        for text in DURABLE_CHAT:
            api.push_message(FORUM, ALICE, text, thread_id=7)
        api.push_message(FORUM, ALICE, "/savenow auto", thread_id=7)
        await api.wait_for("sendMessage", lambda c: c.text.startswith("✅ Saved"))
        api.push_message(FORUM, ALICE, "Another rule for the notes: the staging port is 8443.", thread_id=8)
        api.push_message(FORUM, ALICE, "/savenow auto", thread_id=8)
        await api.wait_for("sendMessage", lambda c: c.text.startswith("✅ Saved"), count=2)
        first_and_second = bot.memory_text()
        assert "8443" in first_and_second and "deploy" in first_and_second

        api.push_message(FORUM, BOB, "/savenow undo", thread_id=8)  # not his write
        (refused,) = await api.wait_for("sendMessage", lambda c: "Only the person" in c.text)
        assert "undo" in refused.text and bot.memory_text() == first_and_second

        api.push_message(FORUM, ALICE, "/savenow undo", thread_id=8)
        (undone,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("↩"))
        assert "8443" not in bot.memory_text() and "deploy" in bot.memory_text()
        assert "`" not in undone.text

        api.push_message(FORUM, ADMIN, "/savenow undo", thread_id=8)  # a second level, by an admin
        replies = await api.wait_for("sendMessage", lambda c: c.thread_id == 8, count=4)
        # One level further back when the journal keeps several; a clear refusal when it keeps one.
        assert replies[-1].text.startswith("↩") or "already undone" in replies[-1].text
        assert "8443" not in bot.memory_text()

    run_with_bot(tmp_path, body)


def test_the_recorder_records_nothing_for_strangers(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(private_chat(STRANGER_ID), STRANGER, "my secret diary")
        api.push_message(private_chat(ALICE_ID), ALICE, "alice's note")
        api.push_message(private_chat(ALICE_ID), ALICE, "/savenow list")
        await api.wait_for("sendMessage", lambda c: c.chat_id == ALICE_ID)
        recorded = json.loads((bot.settings.effective_recorder_dir / "sessions.json").read_text())
        assert set(recorded) == {f"agent:main:telegram:direct:{ALICE_ID}"}

    run_with_bot(tmp_path, body)
