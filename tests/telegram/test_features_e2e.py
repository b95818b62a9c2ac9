"""/compact, /memory, /recall and the bot's own jobs, end to end: the real bot against the fake Bot API.

The trust rules are /savenow's (DESIGN §3.1): a stranger gets the same first-run answer, only allowed
users get anything, only the requester (or an admin) presses a proposal's buttons or undoes its change.
Time is the injected clock: a JobQueue job is run by the test, never waited for.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from savenow.config import CompactionSettings, ObjectsSettings, SearchSettings, Settings
from savenow.objects.model import parse_upsert
from savenow.service.objects import ObjectsService
from savenow.text.tokens import estimate_tokens
from tests.fakes.botapi import Call, FakeBotAPI, group_chat, private_chat, user

from .support import ADMIN_ID, ALICE_ID, BOB_ID, GROUP_ID, Bot, eventually, make_settings, run, running_bot

FORUM = group_chat(GROUP_ID, forum=True)
TOPIC = 7
STRANGER_ID = 4242
ALICE = user(ALICE_ID, "Alice")
BOB = user(BOB_ID, "Bob")
ADMIN = user(ADMIN_ID, "Admin")
STRANGER = user(STRANGER_ID, "Stranger")
ALICE_ZH = user(ALICE_ID, "Alice", language_code="zh-hans")
DEPLOY_CHAT = [
    "The deploy to staging failed with `permission denied` on /srv/app/releases.",
    "Fixed it: running the deploy as the deploy user with sudo -u deploy ./deploy.sh works.",
    "For the notes: always deploy as the deploy user, never as root.",
    "Decision: the staging host is staging-02.internal on port 8443 from now on.",
]
LONG_CHAT = [
    *DEPLOY_CHAT,
    *(f"Step {n}: checked /srv/app/releases/r{n} by hand, its owner and mode look right." for n in range(10)),
]
LAST = (
    "Next week we also move the CI runners to the new rack in the basement; I will write that plan up "
    "on its own later, together with the network changes it needs, so there is nothing more for today."
)


def small_compaction() -> CompactionSettings:
    """A small window that only the last message of LONG_CHAT + LAST crosses (no early flush): one compaction,
    after which the summary and the two kept messages fit well inside it."""
    window = sum(estimate_tokens(line) for line in LONG_CHAT) + 10
    assert estimate_tokens(LAST) > 10
    return CompactionSettings(
        max_tokens=window, preserve_recent=2, reserve_tokens_floor=0, soft_threshold_tokens=0
    )


def in_topic(call: Call) -> bool:
    return call.chat_id == GROUP_ID and call.thread_id == TOPIC


def buttons(call: Call) -> list[dict[str, Any]]:
    keyboard = call.keyboard or []
    return [button for row in keyboard for button in row]


def seed_objects(settings: Settings, bot: Bot) -> ObjectsService:
    service = ObjectsService(settings, clock=bot.clock)
    service.upsert(
        parse_upsert(
            [
                {"type": "relationship", "name": "朵朵", "relation": "family", "summary": "用户的女儿",
                 "facts": ["对芒果过敏"]},
                {"type": "topic", "name": "tide-notes", "status": "active", "summary": "Rust + SQLite notes app"},
            ]
        )
    )  # fmt: skip
    return service


# -- compaction -----------------------------------------------------------------------------------


def test_a_topic_session_past_the_threshold_is_flushed_then_compacted_and_the_topic_is_told(
    tmp_path: Path,
) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        for line in [*LONG_CHAT, LAST]:
            api.push_message(FORUM, ALICE, line, thread_id=TOPIC)
        (notice,) = await api.wait_for("sendMessage", lambda c: "Compacted this session" in c.text)
        assert in_topic(notice) and f"{len(LONG_CHAT) - 1} older messages" in notice.text
        assert "Saved to memory/2026-05-15.md before compacting" in notice.text
        assert "/savenow undo" in notice.text and "`" not in notice.text
        assert "always deploy as the deploy user" in bot.memory_text().lower()
        transcripts = list(bot.settings.effective_recorder_dir.glob("*.jsonl"))
        records = [json.loads(line) for path in transcripts for line in path.read_text().splitlines()]
        compactions = [r for r in records if r.get("type") == "compaction"]
        assert len(compactions) == 1 and compactions[0]["details"]["by"] == "savenow"
        assert sum(r.get("type") == "message" for r in records) == len(LONG_CHAT) + 1  # old lines stay

        # The flush wrote for Alice's conversation: Bob may not undo it, Alice may.
        api.push_message(FORUM, BOB, "/savenow undo", thread_id=TOPIC)
        await api.wait_for("sendMessage", lambda c: "Only the person who asked" in c.text)
        assert "deploy user" in bot.memory_text()
        api.push_message(FORUM, ALICE, "/savenow undo", thread_id=TOPIC)
        await api.wait_for("sendMessage", lambda c: c.text.startswith("↩ Undid the last write"))
        assert "deploy user" not in bot.memory_text()

    _run(tmp_path, body, compaction=small_compaction())


def test_compact_and_compact_status_for_allowed_users_in_their_language(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        for line in DEPLOY_CHAT[:2]:
            api.push_message(FORUM, ALICE, line, thread_id=TOPIC)
        api.push_message(FORUM, ALICE_ZH, "/compact status", thread_id=TOPIC)
        (status,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("当前会话"))
        assert in_topic(status) and "2 条消息" in status.text and "已压缩 0 次" in status.text
        api.push_message(FORUM, ALICE, "/compact", thread_id=TOPIC)  # under the threshold: forced
        (done,) = await api.wait_for("sendMessage", lambda c: "Compacted this session" in c.text)
        assert in_topic(done)
        api.push_message(FORUM, ALICE, "/compact", thread_id=TOPIC)  # nothing new since
        await api.wait_for("sendMessage", lambda c: c.text.startswith("Nothing to compact"))
        api.push_message(FORUM, ALICE, "/compact status", thread_id=TOPIC)
        await api.wait_for("sendMessage", lambda c: "compacted 1 times" in c.text)

    _run(tmp_path, body, compaction=CompactionSettings(preserve_recent=1))


def test_a_stranger_gets_the_same_first_run_answer_from_every_command(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        dm = private_chat(STRANGER_ID)
        commands = ["/savenow", "/compact", "/compact status", "/memory", "/memory forget 朵朵", "/recall port",
                    "/savenow search port", "/memory undo"]  # fmt: skip
        for command in commands:
            api.push_message(dm, STRANGER, command)
        replies = await api.wait_for("sendMessage", count=len(commands))
        texts = {reply.text for reply in replies}
        assert len(texts) == 1, texts  # one answer, whatever the command
        (answer,) = texts
        assert f"your Telegram user id is {STRANGER_ID}" in answer
        assert "朵朵" not in answer and not any(buttons(reply) for reply in replies)
        assert not bot.settings.memory_dir.exists() or not any(bot.settings.memory_dir.glob("*.md"))
        assert seed.list_objects() and len(seed.list_objects()) == 2  # nothing forgotten

    def seeded(api: FakeBotAPI, bot: Bot) -> Any:
        nonlocal seed
        seed = seed_objects(bot.settings, bot)
        return body(api, bot)

    seed: ObjectsService
    _run(tmp_path, seeded)


def test_with_the_default_config_memory_commands_answer_with_the_users_id(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(private_chat(STRANGER_ID), STRANGER, "/memory")
        api.push_message(private_chat(STRANGER_ID), STRANGER, "/savenow")
        first, second = await api.wait_for("sendMessage", count=2)
        assert first.text == second.text and f"Your Telegram user id is {STRANGER_ID}" in first.text

    _run(tmp_path, body, telegram={"admin_user_ids": [], "allowed_user_ids": []})


# -- /memory --------------------------------------------------------------------------------------


def test_memory_lists_finds_and_forgets_only_on_the_requesters_press_then_undoes(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        seed_objects(bot.settings, bot)
        api.push_message(FORUM, ALICE, "/memory", thread_id=TOPIC)
        (listing,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("Memory objects (2)"))
        assert "朵朵" in listing.text and "tide-notes" in listing.text and in_topic(listing)
        api.push_message(FORUM, ALICE_ZH, "/memory 芒果", thread_id=TOPIC)
        (found,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("与「芒果」匹配"))
        assert "朵朵" in found.text and "tide-notes" not in found.text

        api.push_message(FORUM, ALICE, "/memory forget 朵朵", thread_id=TOPIC)
        (ask,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("Forget “朵朵”?"))
        forget, cancel = buttons(ask)
        assert forget["text"] == "🗑 Forget" and cancel["text"] == "❌ Cancel"
        message = api.sent_message(ask)

        api.push_callback(message, BOB, forget["callback_data"])  # not Bob's: refused, buttons stay
        (refusal,) = await api.wait_for("answerCallbackQuery")
        assert "Only the person who asked" in refusal.params["text"]
        assert api.message(GROUP_ID, message["message_id"]).get("reply_markup")
        assert len(ObjectsService(bot.settings, clock=bot.clock).list_objects()) == 2

        api.push_callback(message, ALICE, forget["callback_data"])
        await api.wait_for("answerCallbackQuery", count=2)
        edited = api.message(GROUP_ID, message["message_id"])
        assert "Forgot “朵朵”" in edited["text"] and edited["text"].startswith("Forget “朵朵”?")
        assert not edited.get("reply_markup")
        names = [o.get("name") for o in ObjectsService(bot.settings, clock=bot.clock).list_objects()]
        assert names == ["tide-notes"]

        api.push_callback(message, ALICE, forget["callback_data"])  # a double tap: nothing more
        third = await api.wait_for("answerCallbackQuery", count=3)
        assert third[-1].params["text"].startswith("Already applied")

        api.push_message(FORUM, BOB, "/memory undo", thread_id=TOPIC)  # Alice's change, not Bob's
        await api.wait_for("sendMessage", lambda c: "Only the person who made the last" in c.text)
        api.push_message(FORUM, ALICE, "/memory undo", thread_id=TOPIC)
        await api.wait_for("sendMessage", lambda c: c.text.startswith("↩️ Undid the last memory change"))
        assert len(ObjectsService(bot.settings, clock=bot.clock).list_objects()) == 2

    _run(tmp_path, body)


def test_a_memory_forget_cancelled_by_an_admin_forgets_nothing(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        seed_objects(bot.settings, bot)
        api.push_message(FORUM, ALICE, "/memory forget tide-notes", thread_id=TOPIC)
        (ask,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("Forget “tide-notes”?"))
        _forget, cancel = buttons(ask)
        api.push_callback(api.sent_message(ask), ADMIN, cancel["callback_data"])
        (answer,) = await api.wait_for("answerCallbackQuery")
        assert answer.params["text"].startswith("❌ Cancelled")
        assert len(ObjectsService(bot.settings, clock=bot.clock).list_objects()) == 2

    _run(tmp_path, body)


def test_a_newer_memory_question_takes_the_older_buttons_off_and_unpressed_ones_expire(
    tmp_path: Path,
) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        seed_objects(bot.settings, bot)
        api.push_message(FORUM, ALICE, "/memory forget 朵朵", thread_id=TOPIC)
        (first,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("Forget “朵朵”?"))
        api.push_message(FORUM, ALICE, "/memory forget tide-notes", thread_id=TOPIC)
        (second,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("Forget “tide-notes”?"))
        older = api.sent_message(first)
        await api.wait_for(
            "editMessageReplyMarkup", lambda c: c.params.get("message_id") == str(older["message_id"])
        )
        assert not api.message(GROUP_ID, older["message_id"]).get("reply_markup")

        await eventually(lambda: len(jobs_named(bot, "savenow-expire:objects:")) == 2)
        bot.clock.advance(minutes=31)
        for job in jobs_named(bot, "savenow-expire:objects:"):  # the older one's finds it replaced
            await job.run(bot.plugin.application)
        newer = api.sent_message(second)
        edited = api.message(GROUP_ID, newer["message_id"])
        assert edited["text"].startswith("Forget “tide-notes”?") and "Expired after 30 min" in edited["text"]
        assert not edited.get("reply_markup") and "/savenow" not in edited["text"]
        assert len(ObjectsService(bot.settings, clock=bot.clock).list_objects()) == 2

    _run(tmp_path, body)


# -- idle proposals and the daily maintenance ----------------------------------------------------------


def jobs_named(bot: Bot, prefix: str) -> list[Any]:
    queue = bot.plugin.application.job_queue
    assert queue is not None
    return [job for job in queue.jobs() if job.name and job.name.startswith(prefix)]


def test_an_idle_topic_gets_its_proposed_objects_with_buttons_only_its_speaker_may_press(
    tmp_path: Path,
) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        application = bot.plugin.application
        api.push_message(
            FORUM, ALICE_ZH, "帮我记住：家里 wifi 密码是 sunflower-2048，路由器在书房", thread_id=TOPIC
        )
        await eventually(lambda: bool(jobs_named(bot, "savenow-idle:")))
        (job,) = jobs_named(bot, "savenow-idle:")
        await job.run(application)  # woken before the clock says 30 min: nothing posted, it waits again
        assert not api.calls_to("sendMessage")
        assert len(jobs_named(bot, "savenow-idle:")) == 2  # the one the test ran is still scheduled too

        bot.clock.advance(minutes=30)
        await jobs_named(bot, "savenow-idle:")[-1].run(application)
        (proposal,) = await api.wait_for(
            "sendMessage", lambda c: c.text.startswith("从这段对话中整理出的记忆对象")
        )
        assert in_topic(proposal) and "wifi" in proposal.text
        apply, cancel = buttons(proposal)
        assert apply["text"] == "✅ 应用" and cancel["text"] == "❌ 取消"
        message = api.sent_message(proposal)
        assert not (bot.workspace / "memory" / "objects").exists()  # nothing written before Apply

        api.push_callback(message, BOB, apply["callback_data"])
        (refusal,) = await api.wait_for("answerCallbackQuery")
        assert "Only the person who asked" in refusal.params["text"]
        assert not (bot.workspace / "memory" / "objects").exists()

        api.push_callback(message, ALICE_ZH, apply["callback_data"])
        await api.wait_for("answerCallbackQuery", count=2)
        edited = api.message(GROUP_ID, message["message_id"])
        assert "✅ 已保存：新建 1 个" in edited["text"] and not edited.get("reply_markup")
        assert len(list((bot.workspace / "memory" / "objects").rglob("*.md"))) == 1

    _run(tmp_path, body, objects=ObjectsSettings(idle_proposal_minutes=30))


def test_idle_proposals_are_off_by_default(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(FORUM, ALICE, "Remember this: the spare key is with Mrs Okafor.", thread_id=TOPIC)
        api.push_message(FORUM, ALICE, "/memory", thread_id=TOPIC)  # recorded after the line above
        await api.wait_for("sendMessage")
        assert not jobs_named(bot, "savenow-idle:")

    _run(tmp_path, body)


def test_the_daily_maintenance_job_pauses_a_topic_idle_for_two_weeks(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        seed_objects(bot.settings, bot)
        (job,) = jobs_named(bot, "savenow-objects-maintain")
        assert job.next_t is not None  # once a day
        bot.clock.advance(days=15)
        await job.run(bot.plugin.application)

        def paused() -> bool:
            items = ObjectsService(bot.settings, clock=bot.clock).list_objects()
            return any(item.get("name") == "tide-notes" and item.get("status") == "paused" for item in items)

        await eventually(paused)

    _run(tmp_path, body)


# -- /recall and /savenow search ------------------------------------------------------------------


class FakeRecall:
    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def __call__(self, query: str, lang: str) -> str:
        self.asked.append((query, lang))
        header = "关于“{}”的记忆：" if lang == "zh" else "Memory for “{}”:"
        return (
            header.format(query)
            + "\n1. memory/2026-05-14.md:3 · 2026-05-14\n   staging-02.internal <port 8443>"
        )


def test_recall_and_savenow_search_answer_allowed_users_in_their_language(tmp_path: Path) -> None:
    recall = FakeRecall()

    async def body(api: FakeBotAPI, bot: Bot) -> None:
        assert bot.plugin.handlers.features is not None
        bot.plugin.handlers.features.recall_fn = recall
        api.push_message(FORUM, ALICE_ZH, "/recall 端口", thread_id=TOPIC)
        (zh,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("关于“端口”的记忆"))
        assert in_topic(zh) and "memory/2026-05-14.md:3 · 2026-05-14" in zh.text
        assert "&lt;port 8443&gt;" in zh.text  # escaped for Telegram's HTML: shown as written
        api.push_message(FORUM, BOB, "/savenow search staging port", thread_id=TOPIC)
        await api.wait_for("sendMessage", lambda c: c.text.startswith("Memory for “staging port”"))
        assert recall.asked == [("端口", "zh"), ("staging port", "en")]

    _run(tmp_path, body)


def test_recall_finds_a_note_through_the_search_package(tmp_path: Path) -> None:
    """The real search (issue 14), its index opened once for the bot's lifetime."""

    async def body(api: FakeBotAPI, bot: Bot) -> None:
        assert bot.plugin.handlers.features is not None and bot.plugin.handlers.features.recall_fn is not None
        bot.settings.memory_dir.mkdir(parents=True, exist_ok=True)
        note = "# 2026-05-14\n\n## Staging gateway\n- The staging gateway listens on port 8443.\n"
        (bot.settings.memory_dir / "2026-05-14.md").write_text(note, encoding="utf-8")
        api.push_message(FORUM, ALICE, "/recall gateway port", thread_id=TOPIC)
        (reply,) = await api.wait_for("sendMessage", lambda c: c.text.startswith("Memory for “gateway port”"))
        assert "memory/2026-05-14.md:3 · 2026-05-14" in reply.text and "port 8443" in reply.text
        api.push_message(private_chat(STRANGER_ID), STRANGER, "/recall gateway port")
        (refused,) = await api.wait_for("sendMessage", lambda c: c.chat_id == STRANGER_ID)
        assert "8443" not in refused.text

    _run(tmp_path, body)


def test_recall_says_so_when_search_is_turned_off(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        assert bot.plugin.handlers.features is not None and bot.plugin.handlers.features.recall_fn is None
        api.push_message(FORUM, ALICE_ZH, "/savenow search port", thread_id=TOPIC)
        await api.wait_for("sendMessage", lambda c: "配置关闭了记忆搜索" in c.text)

    _run(tmp_path, body, search=SearchSettings(enabled=False))


# -- /help ------------------------------------------------------------------------------------------


def test_help_names_the_new_commands_in_both_languages(tmp_path: Path) -> None:
    async def body(api: FakeBotAPI, bot: Bot) -> None:
        api.push_message(FORUM, ALICE, "/savenow help", thread_id=TOPIC)
        api.push_message(FORUM, ALICE_ZH, "/help", thread_id=TOPIC)
        en, zh = await api.wait_for("sendMessage", count=2)
        for text in (en.text, zh.text):
            for command in (
                "/recall",
                "/savenow search",
                "/compact",
                "/compact status",
                "/memory forget",
                "/memory undo",
            ):
                assert command in text
        assert "find notes in memory" in en.text and "在记忆中查找" in zh.text

    _run(tmp_path, body)


def _run(tmp_path: Path, body: Any, *, telegram: dict[str, Any] | None = None, **sections: Any) -> None:
    async def main() -> None:
        with FakeBotAPI() as api:
            settings = make_settings(tmp_path, api, **(telegram or {}))
            for name, value in sections.items():
                setattr(settings, name, value)
            async with running_bot(tmp_path, api=api, settings=settings) as bot:
                await body(api, bot)

    run(main())
