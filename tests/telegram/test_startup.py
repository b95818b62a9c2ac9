"""``savenow bot`` start-up: clear errors, and what it logs about privacy mode."""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path

import pytest

from savenow.cli import main
from savenow.telegram.bot import api_urls
from tests.fakes.botapi import FakeBotAPI

from .support import run, running_bot


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "SAVENOW_TELEGRAM__TOKEN",
        "SAVENOW_CONFIG",
        "SAVENOW_WORKSPACE",
        "SAVENOW_TELEGRAM__API_BASE_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.config/savenow/config.yaml


def test_no_token_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "--workspace", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "telegram.token is not set" in err and "SAVENOW_TELEGRAM__TOKEN" in err
    assert err.count("\n") == 1


def test_a_missing_workspace_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SAVENOW_TELEGRAM__TOKEN", "1:abc")
    assert main(["bot", "--workspace", str(tmp_path / "nowhere")]) == 2
    assert "nowhere does not exist" in capsys.readouterr().err


def test_a_rejected_token_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("telegram:\n  token: '999:WRONG'\n", encoding="utf-8")
    with FakeBotAPI() as api:
        code = main(
            ["bot", "--config", str(config), "--workspace", str(tmp_path), "--api-base-url", api.base_url]
        )
    err = capsys.readouterr().err
    assert code == 2 and "rejected by the Bot API" in err
    assert "999:WRONG" not in err  # the token is never printed


def test_an_unreachable_bot_api_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("SAVENOW_TELEGRAM__TOKEN", "1:abc")
    monkeypatch.setenv("SAVENOW_TELEGRAM__API_BASE_URL", f"http://127.0.0.1:{port}")
    assert main(["bot", "--workspace", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"cannot reach the Bot API at http://127.0.0.1:{port}" in err and "1:abc" not in err


@pytest.mark.parametrize(
    ("can_read", "expected"),
    [(False, "privacy mode is ON"), (True, "privacy mode is off")],
)
def test_start_up_logs_what_privacy_mode_means_for_recording(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, can_read: bool, expected: str
) -> None:
    async def body() -> None:
        with FakeBotAPI(can_read_all_group_messages=can_read) as api:
            async with running_bot(tmp_path, api=api):
                pass
            commands = api.calls_to("setMyCommands")
            assert {c.params.get("language_code") for c in commands} == {None, "zh"}

    with caplog.at_level(logging.INFO, logger="savenow.telegram"):
        run(body())
    assert expected in caplog.text
    assert "recorder" in caplog.text


def test_serve_stops_cleanly_when_asked(tmp_path: Path) -> None:
    async def body() -> None:
        with FakeBotAPI() as api:
            async with running_bot(tmp_path, api=api) as bot:
                application = bot.plugin.application
            assert not application.running

    run(asyncio.wait_for(body(), 30))


def test_api_urls_accept_a_server_root_or_a_bot_url() -> None:
    assert api_urls(None) == ("https://api.telegram.org/bot", "https://api.telegram.org/file/bot")
    assert api_urls("http://127.0.0.1:8081/") == (
        "http://127.0.0.1:8081/bot",
        "http://127.0.0.1:8081/file/bot",
    )
    assert api_urls("http://127.0.0.1:8081/bot") == (
        "http://127.0.0.1:8081/bot",
        "http://127.0.0.1:8081/file/bot",
    )
