"""savenow as a plugin for an existing python-telegram-bot Application.

    from savenow.config import load_settings
    from savenow.telegram import register, record_outgoing

    savenow = register(application, load_settings())
    ...
    sent = await context.bot.send_message(chat_id, "Hello")
    await record_outgoing(context.application, sent)   # bots never receive their own messages

``register`` adds savenow's handlers in groups of their own, so the host bot's
handlers keep working and still see every update: the recorder in
``recorder_group`` (runs first) and ``/savenow`` plus its buttons in ``group``, with ``/recall``,
``/compact`` and ``/memory`` (:mod:`savenow.telegram.features`).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from telegram import Message
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, MessageHandler, filters

from ..clock import Clock, load_timezone
from ..config import Settings
from ..service import SaveNowApi
from .features import OBJECTS_CALLBACK_PATTERN, FeatureHandlers, Recall, default_recall
from .handlers import CALLBACK_PATTERN, SaveNowHandlers

DEFAULT_GROUP = -50  # before the host's default group 0, in a group of its own: nothing is stolen
DEFAULT_RECORDER_GROUP = -51  # before /savenow, so a command waits for the messages preceding it

_PLUGINS: weakref.WeakKeyDictionary[Application, SaveNowPlugin] = weakref.WeakKeyDictionary()


@dataclass
class SaveNowPlugin:
    """What :func:`register` returns: the handlers' shared state and its collaborators."""

    application: Application
    handlers: SaveNowHandlers
    settings: Settings

    @property
    def service(self) -> SaveNowApi:
        return self.handlers.service

    @property
    def recorder(self) -> Any:
        return self.handlers.recorder

    async def record_outgoing(self, messages: Message | Iterable[Message]) -> None:
        for message in [messages] if isinstance(messages, Message) else messages:
            await self.handlers.record_outgoing(message)

    def close(self) -> None:
        self.handlers.close()

    def stop_now(self) -> None:
        """Cancel the work still running, before the Application stops (it waits for its tasks)."""
        self.handlers.stop_now()


def register(
    application: Application,
    settings: Settings,
    *,
    service: SaveNowApi | None = None,
    recorder: Any = None,
    clock: Clock | None = None,
    group: int = DEFAULT_GROUP,
    recorder_group: int = DEFAULT_RECORDER_GROUP,
    record: bool = True,
    service_workers: int = 64,
    max_pending: int | None = None,
    help_command: bool = False,
    memory_commands: bool = True,
    compaction: Any = None,
    objects: Any = None,
    recall: Recall | None | Literal["default"] = "default",
) -> SaveNowPlugin:
    """Add savenow's handlers to ``application`` and return the plugin.

    ``service`` / ``recorder`` default to the real ones built from ``settings``
    (tests inject fakes or a clock). ``record=False`` leaves the recorder out,
    e.g. when OpenClaw's own ``sessions_dir`` already holds the conversation.
    ``max_pending`` bounds the extractions running or waiting (default twice
    ``service_workers``); ``help_command`` also answers ``/help`` (the standalone
    bot does; a host bot has its own). ``memory_commands`` adds ``/recall``, ``/compact`` and ``/memory``
    with the objects' buttons, the daily objects maintenance and the idle proposals;
    ``compaction`` / ``objects`` / ``recall`` default to the real services (tests inject their own).
    """
    if application in _PLUGINS:
        raise RuntimeError("savenow is already registered on this application")
    clock = clock or Clock.from_env(load_timezone(settings.timezone))
    if service is None:
        from ..service import SaveNowService

        service = SaveNowService(settings, clock=clock)
    if recorder is None and record:
        from ..sessions.recorder import SessionRecorder

        recorder = SessionRecorder(
            settings.effective_recorder_dir,
            agent_id=settings.agent_id,
            clock=clock,
            idle_gap=timedelta(minutes=settings.telegram.idle_gap_minutes),
        )
    handlers = SaveNowHandlers(
        settings,
        service=service,
        recorder=recorder,
        clock=clock,
        service_workers=service_workers,
        max_pending=max_pending,
    )

    if memory_commands:
        _add_features(
            application, handlers, settings, clock, group=group, compaction=compaction, objects=objects,
            sessions=service, recall=recall,
        )  # fmt: skip
    # Only new messages run /savenow: an edited old command must not run again.
    application.add_handler(
        CommandHandler("savenow", handlers.on_command, filters=filters.UpdateType.MESSAGE, block=False),
        group=group,
    )
    application.add_handler(
        CallbackQueryHandler(handlers.on_button, pattern=CALLBACK_PATTERN, block=False), group=group
    )
    if help_command:
        application.add_handler(
            CommandHandler("help", handlers.on_help, filters=filters.UpdateType.MESSAGE, block=False),
            group=group,
        )
    if recorder is not None:
        text = filters.TEXT | filters.CAPTION
        application.add_handler(
            MessageHandler(text & filters.UpdateType.MESSAGE, handlers.on_message, block=False),
            group=recorder_group,
        )
        application.add_handler(
            MessageHandler(text & filters.UpdateType.EDITED_MESSAGE, handlers.on_edit, block=False),
            group=recorder_group,
        )
    plugin = SaveNowPlugin(application=application, handlers=handlers, settings=settings)
    _PLUGINS[application] = plugin
    return plugin


def _add_features(
    application: Application,
    handlers: SaveNowHandlers,
    settings: Settings,
    clock: Clock,
    *,
    group: int,
    compaction: Any,
    objects: Any,
    sessions: Any,
    recall: Recall | None | Literal["default"],
) -> None:
    """``/recall``, ``/compact``, ``/memory`` and the objects' buttons, plus the bot's own jobs."""
    from ..service import SaveNowService

    facade = sessions if isinstance(sessions, SaveNowService) else None
    if compaction is None:
        from ..service.compaction import CompactionService

        compaction = facade.compaction if facade is not None else CompactionService(settings, clock=clock)
    if objects is None:
        from ..service.objects import ObjectsService

        objects = facade.objects if facade is not None else ObjectsService(settings, clock=clock)
    features = FeatureHandlers(
        handlers,
        application,
        compaction=compaction,
        objects=objects,
        recall=default_recall(settings, clock) if recall == "default" else recall,
    )
    handlers.features = features
    for name, callback in (
        ("recall", features.on_recall),
        ("compact", features.on_compact),
        ("memory", features.on_memory),
    ):
        application.add_handler(
            CommandHandler(name, callback, filters=filters.UpdateType.MESSAGE, block=False), group=group
        )
    application.add_handler(
        CallbackQueryHandler(features.on_objects_button, pattern=OBJECTS_CALLBACK_PATTERN, block=False),
        group=group,
    )
    features.schedule_maintenance()


def plugin_for(application: Application) -> SaveNowPlugin:
    try:
        return _PLUGINS[application]
    except KeyError:
        raise RuntimeError("savenow.telegram.register() was not called on this application") from None


async def record_outgoing(application: Any, messages: Message | Iterable[Message]) -> None:
    """Record what the host bot sent into the session store.

    ``application`` is the Application (or a ``CallbackContext``, whose
    ``.application`` is used); ``messages`` is what ``send_message`` & co returned.
    """
    app = getattr(application, "application", application)
    plugin = plugin_for(app)
    if plugin.recorder is None:
        return
    await plugin.record_outgoing(messages)
