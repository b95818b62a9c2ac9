"""File-era transcripts with the shapes real OpenClaw files hold (OPENCLAW-STORE.md "What a reader must drop")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from savenow.sessions.openclaw import OpenClawFileStore
from savenow.sessions.resolve import SessionCatalog

from .shapegen import (
    BACKGROUND_TASK,
    CRON_PROMPT,
    HEARTBEAT,
    MEDIA,
    METADATA,
    SYSTEM_LINES,
    failed_turn,
    injected_failure,
    leaf,
    mirror,
    queued,
    reset,
    typeless,
)
from .storegen import GROUP, StoreBuilder, assistant, conversation, topic_key, user


def _read(tmp_path: Path, lines: list[dict[str, Any] | str], limit: int = 150) -> list[tuple[str, str]]:
    builder = StoreBuilder(tmp_path / "sessions")
    builder.add(topic_key(7), lines)
    store = OpenClawFileStore(builder.write())
    info = store.get(topic_key(7))
    assert info is not None
    return [(m.role, m.text) for m in store.read_messages(info, limit).messages]


def test_delivery_mirrors_and_gateway_rows_are_not_the_assistant(tmp_path: Path) -> None:
    got = _read(
        tmp_path,
        [
            user("deploy it"),
            assistant("Deployed to staging."),
            mirror("Deployed to staging."),
            mirror("Deployed to staging.", provider="clawdbot"),
            mirror("Deployed to staging.", marker=True),
            injected_failure(),
            user("thanks"),
        ],
    )
    assert got == [("user", "deploy it"), ("assistant", "Deployed to staging."), ("user", "thanks")]


def test_reply_tags_and_heartbeat_ok_are_stripped(tmp_path: Path) -> None:
    got = _read(
        tmp_path,
        [
            user("hello"),
            assistant("[[reply_to_current]]Hey 👋 在的～"),
            assistant("[[ reply_to:4634 ]] [[audio_as_voice]] Sure."),
            assistant("Context at 87%.\n\nHEARTBEAT_OK"),
        ],
    )
    assert got == [
        ("user", "hello"),
        ("assistant", "Hey 👋 在的～"),
        ("assistant", "Sure."),
        ("assistant", "Context at 87%."),
    ]


def test_gateway_scaffolding_is_stripped_and_the_users_words_kept(tmp_path: Path) -> None:
    got = _read(
        tmp_path,
        [
            user(SYSTEM_LINES + METADATA + "方案A吧。\n以后一定要确保有这种东西。"),
            user(MEDIA + METADATA + "what is on this receipt?"),
            user(MEDIA + METADATA + "<media:image>"),
            user(queued("修复好了吗", "also: the staging key rotates monthly")),
        ],
    )
    assert got == [
        ("user", "方案A吧。\n以后一定要确保有这种东西。"),
        ("user", "what is on this receipt?"),
        ("user", "修复好了吗\n\nalso: the staging key rotates monthly"),
    ]


def test_gateway_prompts_are_not_user_messages(tmp_path: Path) -> None:
    got = _read(
        tmp_path,
        [
            user(HEARTBEAT),
            assistant("HEARTBEAT_OK"),
            user(SYSTEM_LINES + HEARTBEAT),
            user(BACKGROUND_TASK),
            user(CRON_PROMPT),
            user("A scheduled reminder has been triggered. The reminder content is:\n\nRun the sync."),
            user("the real question"),
        ],
    )
    assert got == [("user", "the real question")]


def test_a_retried_message_counts_once(tmp_path: Path) -> None:
    got = _read(
        tmp_path,
        [
            user("rotate the token"),
            failed_turn(),
            user("rotate the token"),
            failed_turn(),
            user("rotate the token"),
            assistant("Rotated."),
            user("rotate the token"),  # asked again after an answer: a new message, kept
        ],
    )
    assert got == [("user", "rotate the token"), ("assistant", "Rotated."), ("user", "rotate the token")]


def test_history_starts_after_the_last_reset(tmp_path: Path) -> None:
    got = _read(tmp_path, [*conversation(2, prefix="before"), reset("new"), *conversation(1, prefix="after")])
    assert got == [("user", "after user 0"), ("assistant", "after assistant 0")]


def test_a_reset_keeps_what_its_first_kept_entry_names(tmp_path: Path) -> None:
    before = conversation(3, prefix="before")
    got = _read(tmp_path, [*before, reset("reset", first_kept=before[4]["id"]), user("after")])
    assert got == [("user", "before user 2"), ("assistant", "before assistant 2"), ("user", "after")]
    missing = _read(tmp_path / "b", [*before, reset("reset", first_kept="gone"), user("after")])
    assert missing == [("user", "after")]


def test_the_live_branch_is_followed_from_the_leaf(tmp_path: Path) -> None:
    kept = user("use postgres 16")
    abandoned = [
        assistant("Installing mysql…"),
        user("actually use mysql and drop the db"),
        assistant("Dropped."),
    ]
    got = _read(
        tmp_path, [user("set up a db"), kept, *abandoned, leaf(kept["id"]), assistant("Postgres 16 is up.")]
    )
    assert got == [("user", "set up a db"), ("user", "use postgres 16"), ("assistant", "Postgres 16 is up.")]


def test_a_rewind_to_the_root_or_a_missing_target(tmp_path: Path) -> None:
    assert _read(tmp_path, [*conversation(2), leaf(None), user("fresh start")]) == [("user", "fresh start")]
    # A target that is not in the file: the rewind cannot be followed, the lines read as written.
    got = _read(tmp_path / "b", [user("one"), assistant("two"), leaf("nowhere"), user("three")])
    assert got == [("user", "one"), ("assistant", "two"), ("user", "three")]


def test_lines_without_a_type_are_read(tmp_path: Path) -> None:
    got = _read(
        tmp_path, [typeless("user", "old style"), typeless("assistant", "still read"), user("new style")]
    )
    assert got == [("user", "old style"), ("assistant", "still read"), ("user", "new style")]


def test_legacy_keys_are_shown_and_accepted_in_canonical_form(tmp_path: Path) -> None:
    folder = tmp_path / "agents" / "main" / "sessions"
    builder = StoreBuilder(folder)
    legacy = f"telegram:group:{GROUP}:topic:2"
    builder.add(legacy, [user("legacy topic"), assistant("ok")], chatType="group")
    builder.write()
    store = OpenClawFileStore(folder)
    assert [info.key for info in store.list_sessions()] == [f"agent:main:{legacy}"]
    catalog = SessionCatalog([store])
    assert catalog.resolve(chat_id=GROUP, thread_id="2", chat_type="group").key == f"agent:main:{legacy}"
    assert (
        catalog.resolve(chat_id=None, thread_id=None, explicit_key=f"agent:main:{legacy}").key
        == f"agent:main:{legacy}"
    )
    assert catalog.resolve(chat_id=None, thread_id=None, explicit_key=legacy).key == f"agent:main:{legacy}"


def test_a_canonical_key_wins_over_its_legacy_twin(tmp_path: Path) -> None:
    folder = tmp_path / "agents" / "ops" / "sessions"
    builder = StoreBuilder(folder)
    builder.add("telegram:direct:42", [user("legacy")])
    builder.add("agent:ops:telegram:direct:42", [user("canonical")])
    builder.write()
    store = OpenClawFileStore(folder)  # the folder names the agent: ops
    info = store.get("telegram:direct:42")
    assert info is not None and info.key == "agent:ops:telegram:direct:42"
    assert [m.text for m in store.read_messages(info, 10).messages] == ["canonical"]


def test_the_preview_ignores_pre_reset_abandoned_and_media_lines(tmp_path: Path) -> None:
    """The reported failure: notes came from a pre-reset message, an abandoned branch and media scaffolding."""
    target = user("now: the build runs on node 22")
    lines: list[dict[str, Any] | str] = [
        user("记住：部署密钥放在 /etc/old.key"),
        reset("new"),
        user(MEDIA + "keep the build green"),
        target,
        assistant("Remember: always use yarn 1"),
        user("记住：always use yarn 1"),
        leaf(target["id"]),
        assistant("Noted: node 22."),
    ]
    texts = " ".join(text for _, text in _read(tmp_path, lines))
    assert "old.key" not in texts and "yarn" not in texts and "media attached" not in texts
    assert "node 22" in texts and "keep the build green" in texts
    assert json.dumps(texts)  # plain text
