"""Webhook mode: the bot registers its webhook with the (fake) Bot API and takes updates by POST,
only with the right secret token header."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from savenow.cli import main
from tests.fakes.botapi import FakeBotAPI, group_chat, user

from .support import ALICE_ID, GROUP_ID, run, running_bot

SECRET = "s3cret-Token_for-tests"
FORUM = group_chat(GROUP_ID, forum=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(port: int, update: dict[str, Any], secret: str | None) -> int:
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/savenow-hook", data=json.dumps(update).encode(), headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def update(update_id: int, text: str) -> dict[str, Any]:
    message = {
        "message_id": 500 + update_id,
        "date": 1_778_800_000,
        "chat": FORUM,
        "from": user(ALICE_ID),
        "text": text,
        "message_thread_id": 42,
        "is_topic_message": True,
    }
    if text.startswith("/"):
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
    return {"update_id": update_id, "message": message}


def test_updates_arrive_by_webhook_only_with_the_secret(tmp_path: Path) -> None:
    port = free_port()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(
                tmp_path,
                api=api,
                webhook_url="https://bot.example.com/savenow-hook",
                webhook_listen="127.0.0.1",
                webhook_port=port,
                webhook_secret_token=SECRET,
            ):
                (registered,) = api.calls_to("setWebhook")
                assert registered.params["url"] == "https://bot.example.com/savenow-hook"
                assert registered.params["secret_token"] == SECRET
                assert not api.calls_to("getUpdates")  # no polling

                assert await asyncio.to_thread(post, port, update(1, "/savenow help"), None) == 403
                assert await asyncio.to_thread(post, port, update(2, "/savenow help"), "wrong") == 403
                assert await asyncio.to_thread(post, port, update(3, "/savenow help"), SECRET) == 200
                (reply,) = await api.wait_for("sendMessage")
                assert "/savenow auto" in reply.text and reply.thread_id == 42
                assert (
                    len(api.calls_to("sendMessage")) == 1
                )  # refused posts are answered 403 and never queued

    run(body())


def test_without_a_secret_a_random_one_is_registered(tmp_path: Path) -> None:
    port = free_port()

    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(
                tmp_path, api=api, webhook_url="https://bot.example.com/savenow-hook", webhook_port=port
            ):
                (registered,) = api.calls_to("setWebhook")
                secret = registered.params["secret_token"]
                assert len(secret) >= 32
                assert await asyncio.to_thread(post, port, update(1, "/savenow help"), None) == 403
                assert await asyncio.to_thread(post, port, update(2, "/savenow help"), secret) == 200
                await api.wait_for("sendMessage")

    run(body())


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--webhook-url", "http://bot.example.com/hook"], "must be an https:// URL"),
        (["--webhook-url", "https://bot.example.com/hook", "--secret-token", "no spaces"], "A-Z, a-z"),
    ],
)
def test_bad_webhook_flags_are_a_clear_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    message: str,
) -> None:
    monkeypatch.setenv("SAVENOW_TELEGRAM__TOKEN", "1:abc")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["bot", "--workspace", str(tmp_path), *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "1:abc" not in err
