"""`savenow list/preview/auto` on an OpenClaw install with no flags: the SQLite era, the file era, both."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from savenow.config import load_settings
from savenow.errors import ConfigError
from tests.sessions.sqlitegen import SqliteStoreBuilder
from tests.sessions.storegen import GROUP, StoreBuilder, assistant, topic_key, user

from .conftest import DURABLE_TOPIC, Runner

# 20:30 UTC on the 29th is 04:30 on the 30th in Shanghai: the zone decides the file.
NOW_UTC = "2026-11-29T20:30:00+00:00"
TOPIC = ("--chat-id", GROUP, "--thread-id", "7")


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in list(os.environ):
        if name.startswith("SAVENOW_"):
            monkeypatch.delenv(name)
    state = tmp_path / "openclaw"
    workspace = tmp_path / "agent-home"
    (workspace / "memory").mkdir(parents=True)
    state.mkdir()
    (state / "openclaw.json").write_text(
        "// JSON5, as OpenClaw writes it\n{\n  agents: {\n    defaults: {\n"
        f"      workspace: '{workspace}',\n      userTimezone: 'Asia/Shanghai', // the flush's zone\n"
        "    },\n  },\n}\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(state))
    monkeypatch.setenv("SAVENOW_EXTRACTOR", "heuristic")
    monkeypatch.setenv("SAVENOW_NOW", NOW_UTC)
    return state


def _sqlite_install(state: Path) -> Path:
    builder = SqliteStoreBuilder(state, schema=24)
    builder.add(
        topic_key(7), DURABLE_TOPIC, updated_at=2_000, chatType="group", deliveryContext={"threadId": 7}
    )
    builder.add(topic_key(8), [user("other topic"), assistant("ok")], updated_at=2_000, chatType="group")
    return builder.write()


def _side_files_and_digest(db: Path) -> tuple[list[str], str]:
    return sorted(p.name for p in db.parent.iterdir()), hashlib.sha256(db.read_bytes()).hexdigest()


def test_list_preview_auto_on_a_sqlite_install_with_no_flags(state: Path, savenow: Runner) -> None:
    db = _sqlite_install(state)
    before = _side_files_and_digest(db)

    status, out, err = savenow("list", *TOPIC, "--json")
    assert status == 0, err
    listing = json.loads(out)
    assert [(s["key"], s["source"]) for s in listing["sessions"]] == [(topic_key(7), "openclaw-sqlite")]
    assert listing["workspace"] == str(state.parent / "agent-home")
    assert listing["workspace_from"] == "openclaw.json agents.defaults.workspace"
    assert (listing["timezone"], listing["timezone_from"]) == (
        "Asia/Shanghai",
        "openclaw.json agents.defaults.userTimezone",
    )
    status, out, _ = savenow("list", *TOPIC)
    assert "openclaw-sqlite" in out and "Asia/Shanghai" in out

    status, out, err = savenow("preview", *TOPIC, "--json")
    assert status == 0, err
    preview = json.loads(out)
    assert preview["session_key"] == topic_key(7) and preview["entries"]
    assert preview["memory_path"].endswith("agent-home/memory/2026-11-30.md")  # Shanghai's date, not UTC's

    status, out, err = savenow("auto", *TOPIC, "--json")
    assert status == 0, err
    assert json.loads(out)["written"] is True
    assert (state.parent / "agent-home" / "memory" / "2026-11-30.md").is_file()
    assert _side_files_and_digest(db) == before  # not a byte of the database, no -wal/-shm left behind


def test_flags_and_savenow_settings_win_over_openclaw_json(
    state: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(workspace=str(tmp_path / "mine"), timezone="Europe/Berlin")
    assert (settings.workspace, settings.timezone) == (tmp_path / "mine", "Europe/Berlin")
    setup = settings.openclaw
    assert (setup.workspace_from.render(), setup.timezone_from.render()) == ("savenow settings",) * 2
    monkeypatch.setenv("SAVENOW_TIMEZONE", "UTC")
    assert load_settings().timezone == "UTC"


def test_per_agent_workspaces(state: Path, tmp_path: Path) -> None:
    (state / "openclaw.json").write_text(
        json.dumps(
            {
                "agents": {
                    "defaults": {"workspace": str(tmp_path / "root"), "userTimezone": "Asia/Tokyo"},
                    "list": [
                        {"id": "main", "workspace": str(tmp_path / "main-ws")},
                        {"id": "ops", "userTimezone": "America/New_York"},
                        {"id": "qa"},
                    ],
                }
            }
        ),
        encoding="utf-8",
    )
    main = load_settings()
    assert main.workspace == tmp_path / "main-ws" and main.timezone == "Asia/Tokyo"
    ops = load_settings(agent_id="ops")
    assert ops.workspace == tmp_path / "root" / "ops" and ops.timezone == "America/New_York"
    assert ops.sessions_dir == state / "agents" / "ops" / "sessions"
    (state / "openclaw.json").write_text("{agents: {entries: {solo: {}}}}", encoding="utf-8")
    assert load_settings(agent_id="solo").workspace == state / "workspace"  # a sole agent: the default


def test_a_broken_openclaw_json_is_named(state: Path) -> None:
    (state / "openclaw.json").write_text("{agents: ", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "openclaw.json" in caught.value.en and "--workspace" in caught.value.en
    assert load_settings(workspace="/tmp/x", timezone="UTC").workspace == Path(
        "/tmp/x"
    )  # not read when not needed


def test_a_file_era_install_with_no_flags(state: Path, savenow: Runner) -> None:
    builder = StoreBuilder(state / "agents" / "main" / "sessions")
    builder.add(f"telegram:group:{GROUP}:topic:7", DURABLE_TOPIC, chatType="group")  # a legacy key
    builder.write()
    status, out, err = savenow("list", *TOPIC, "--json")
    assert status == 0, err
    assert [(s["key"], s["source"]) for s in json.loads(out)["sessions"]] == [(topic_key(7), "openclaw")]
    status, out, err = savenow("preview", topic_key(7), *TOPIC, "--json")
    assert status == 0, err
    assert json.loads(out)["entries"]


def test_both_eras_the_database_first_for_the_keys_it_has(state: Path, savenow: Runner) -> None:
    _sqlite_install(state)
    files = StoreBuilder(state / "agents" / "main" / "sessions")
    files.add(topic_key(7), [user("the old file copy")], updated_at=9_000, chatType="group")
    files.add(topic_key(11), [user("only in the old files")], updated_at=9_000, chatType="group")
    files.write()
    status, out, err = savenow("list", "--chat-id", GROUP, "--json")
    assert status == 0, err
    sources = {s["key"]: s["source"] for s in json.loads(out)["sessions"]}
    assert sources[topic_key(7)] == "openclaw-sqlite" and sources[topic_key(11)] == "openclaw"


def test_an_explicit_sessions_dir_skips_era_detection(state: Path, tmp_path: Path, savenow: Runner) -> None:
    _sqlite_install(state)
    elsewhere = StoreBuilder(tmp_path / "elsewhere")
    elsewhere.add(topic_key(7), DURABLE_TOPIC, chatType="group")
    elsewhere.write()
    status, out, err = savenow("list", *TOPIC, "--json", "--sessions-dir", str(tmp_path / "elsewhere"))
    assert status == 0, err
    assert [s["source"] for s in json.loads(out)["sessions"]] == ["openclaw"]


def test_no_store_at_all_says_where_it_looked(state: Path, savenow: Runner) -> None:
    status, _, err = savenow("preview", *TOPIC)
    assert status == 2 and "openclaw-agent.sqlite" in err


def test_an_unknown_zone_in_openclaw_json_is_named(state: Path) -> None:
    (state / "openclaw.json").write_text(
        "{agents: {defaults: {userTimezone: 'Mars/Olympus'}}}", encoding="utf-8"
    )
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "agents.defaults.userTimezone" in caught.value.en and "Mars/Olympus" in caught.value.en
    assert load_settings(timezone="UTC").timezone == "UTC"
