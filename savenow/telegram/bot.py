"""``savenow bot``: a standalone bot built from the configuration (polling, or a webhook).

    SAVENOW_TELEGRAM__TOKEN=123:ABC savenow bot --workspace ~/.openclaw/workspace
    savenow bot --api-base-url http://127.0.0.1:8081     # a local Bot API server
    savenow bot --webhook-url https://bot.example.com/savenow --listen 127.0.0.1 --port 8443

With a webhook URL the bot asks Telegram to POST updates to that URL (behind a
reverse proxy that terminates TLS and forwards to ``--listen``/``--port``), and
accepts a POST only with the right ``X-Telegram-Bot-Api-Secret-Token`` header:
``--secret-token`` / ``telegram.webhook_secret_token``, else a random one per start.

Start-up problems (no token, a token Telegram rejects, a missing workspace, an
unreachable Bot API) end with one clear line and exit status 2 (1 when the
Bot API cannot be reached). Once running, network errors are logged and
polling carries on; 429s are retried after the server's ``retry_after``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import secrets
import signal
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from pydantic import SecretStr
from telegram import BotCommand, LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import AIORateLimiter, Application, BaseRateLimiter, ContextTypes, Defaults

from ..clock import Clock
from ..config import Settings, load_settings_from_args
from ..errors import ConfigError, SaveNowInternalError
from ..messages import Text
from ..service import SaveNowApi
from . import i18n
from .plugin import SaveNowPlugin, register

log = logging.getLogger("savenow.telegram")

RATE_LIMIT_RETRIES = 3
DEFAULT_API = "https://api.telegram.org"


def run_from_cli(args: argparse.Namespace) -> int:
    settings = load_settings_from_args(args)  # the CLI's reading; the workspace is checked at start-up below
    updates: dict[str, Any] = {}
    if getattr(args, "api_base_url", None):
        updates["api_base_url"] = args.api_base_url
    for flag, name in (
        ("webhook_url", "webhook_url"),
        ("listen", "webhook_listen"),
        ("port", "webhook_port"),
    ):
        if getattr(args, flag, None) is not None:
            updates[name] = getattr(args, flag)
    if getattr(args, "secret_token", None):
        updates["webhook_secret_token"] = SecretStr(args.secret_token)
    if updates:
        settings.telegram = settings.telegram.model_copy(update=updates)
    _configure_logging()
    check_startup_settings(settings)
    # Opt in to PTB's timedelta durations now (our code reads both), instead of a warning per 429.
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    try:
        asyncio.run(_serve_until_signal(settings))
    except KeyboardInterrupt:
        pass
    return 0


def _configure_logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # httpx logs every request URL at INFO, and a Bot API URL contains the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)


def check_startup_settings(settings: Settings) -> str:
    """The token, once the settings can run a bot; a ``ConfigError`` saying what to fix otherwise."""
    token = settings.telegram.token.get_secret_value().strip() if settings.telegram.token else ""
    if not token:
        raise ConfigError(Text("bot.no_token"))
    webhook = settings.telegram.webhook_url
    if webhook is not None and (urlsplit(webhook).scheme != "https" or not urlsplit(webhook).hostname):
        raise ConfigError(Text("bot.bad_webhook_url", url=webhook))
    secret = settings.telegram.webhook_secret_token
    if secret is not None and not _valid_secret(secret.get_secret_value()):
        raise ConfigError(Text("bot.bad_webhook_secret"))
    if not settings.workspace.is_dir():
        raise ConfigError(Text("bot.no_workspace", path=settings.workspace))
    return token


def api_urls(api_base_url: str | None) -> tuple[str, str]:
    """(base_url, base_file_url) for PTB, which appends the token to each.

    Accepts a server root (``http://127.0.0.1:8081``) or a URL already ending in ``/bot``.
    """
    root = (api_base_url or DEFAULT_API).rstrip("/")
    root = root.removesuffix("/bot")
    return f"{root}/bot", f"{root}/file/bot"


def build_application(settings: Settings, *, rate_limiter: BaseRateLimiter | None = None) -> Application:
    """A PTB Application: HTML by default, no quoting, no link previews, 429s retried."""
    token = check_startup_settings(settings)
    base_url, base_file_url = api_urls(settings.telegram.api_base_url)
    defaults = Defaults(
        parse_mode=ParseMode.HTML,
        do_quote=False,
        link_preview_options=LinkPreviewOptions(is_disabled=True),
        block=False,
    )
    return (
        Application.builder()
        .token(token)
        .base_url(base_url)
        .base_file_url(base_file_url)
        .defaults(defaults)
        .rate_limiter(rate_limiter or AIORateLimiter(max_retries=RATE_LIMIT_RETRIES))
        .build()
    )


async def serve(
    settings: Settings,
    stop: asyncio.Event,
    *,
    clock: Clock | None = None,
    service: SaveNowApi | None = None,
    rate_limiter: BaseRateLimiter | None = None,
    poll_timeout: float = 10,
    poll_interval: float = 0.0,
    service_workers: int = 64,
    max_pending: int | None = None,
    on_ready: Callable[[SaveNowPlugin], None] | None = None,
) -> None:
    """Run the bot until ``stop`` is set; then stop at once, cancelling work still running."""
    application = build_application(settings, rate_limiter=rate_limiter)
    plugin = register(
        application,
        settings,
        clock=clock,
        service=service,
        service_workers=service_workers,
        max_pending=max_pending,
        help_command=True,
    )
    application.add_error_handler(_log_error)
    try:
        await _initialize(application, settings)
        await _announce(application)
        await _start_updates(application, settings, poll_timeout=poll_timeout, poll_interval=poll_interval)
        await application.start()
        log.info("savenow bot @%s is running; stop with Ctrl-C", application.bot.username)
        if on_ready:
            on_ready(plugin)
        await stop.wait()
    finally:
        plugin.stop_now()  # before Application.stop(), which waits for every handler still running
        if application.updater is not None and application.updater.running:
            await application.updater.stop()
        if application.running:
            await application.stop()
        await application.shutdown()
        plugin.close()


async def _start_updates(
    application: Application, settings: Settings, *, poll_timeout: float, poll_interval: float
) -> None:
    """Polling by default; a webhook server when ``telegram.webhook_url`` is set."""
    updater = application.updater
    assert updater is not None
    telegram = settings.telegram
    if telegram.webhook_url is None:
        await updater.start_polling(
            poll_interval=poll_interval,
            timeout=timedelta(seconds=poll_timeout),
            allowed_updates=Update.ALL_TYPES,
            error_callback=_log_polling_error,
        )
        return
    secret = (
        telegram.webhook_secret_token.get_secret_value()
        if telegram.webhook_secret_token
        else secrets.token_urlsafe(32)
    )
    await updater.start_webhook(
        listen=telegram.webhook_listen,
        port=telegram.webhook_port,
        url_path=urlsplit(telegram.webhook_url).path.strip("/"),
        webhook_url=telegram.webhook_url,
        allowed_updates=Update.ALL_TYPES,
        secret_token=secret,
    )
    log.info(
        "receiving updates by webhook on %s:%s (Telegram posts to %s)",
        telegram.webhook_listen,
        telegram.webhook_port,
        telegram.webhook_url,
    )


def _valid_secret(secret: str) -> bool:
    return 1 <= len(secret) <= 256 and all(ch.isascii() and (ch.isalnum() or ch in "_-") for ch in secret)


async def _initialize(application: Application, settings: Settings) -> None:
    try:
        await application.initialize()  # getMe: checks the token
    except InvalidToken as error:
        raise ConfigError(Text("bot.token_rejected")) from error
    except NetworkError as error:
        url = settings.telegram.api_base_url or DEFAULT_API
        raise SaveNowInternalError(Text("bot.unreachable", url=url, reason=error.message)) from error


async def _announce(application: Application) -> None:
    """Log what the bot can see in groups, and publish /savenow in the command menu."""
    me = application.bot.bot
    if me.can_read_all_group_messages:
        log.info(
            "privacy mode is off: the bot sees every group message, so the recorder can record group "
            "conversations for /savenow"
        )
    else:
        log.warning(
            "privacy mode is ON: in groups the bot only sees commands and replies to it, so the recorder "
            "cannot record group conversations. Turn it off in @BotFather (/setprivacy → Disable, then "
            "remove and re-add the bot to the group), or point sessions_dir at OpenClaw's sessions, "
            "which hold both sides of the chat. Private chats are recorded either way."
        )
    for lang in ("en", "zh"):
        commands = [BotCommand("savenow", i18n.text("command_description", lang))] + [
            BotCommand(name, i18n.text(f"describe_{name}", lang)) for name in ("recall", "compact", "memory")
        ]
        try:
            await application.bot.set_my_commands(commands, language_code=None if lang == "en" else lang)
        except TelegramError as error:
            log.warning("could not publish the /savenow command: %s", error)


async def _serve_until_signal(settings: Settings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this platform / not the main thread
            pass
    await serve(settings, stop)


async def _log_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    error = context.error
    if isinstance(error, NetworkError):
        log.warning("network error (will keep going): %s", error)
    else:
        log.error("unhandled error while handling an update", exc_info=error)


def _log_polling_error(error: TelegramError) -> None:
    log.warning("polling error (will retry): %s", error)
