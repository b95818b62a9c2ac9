"""The optional LLM object extractor against the fake OpenAI-compatible server (DESIGN §14)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.fakes.fake_llm import FakeLLMServer, chat_reply, error_reply
from tests.objects.conftest import Install, Runner, scope_flags

KEY = "sk-test-objects-0123456789"
ZHANG = {"type": "relationship", "name": "张姐姐", "relation": "钟点工", "summary": "家里的钟点工",
         "facts": ["每周一上午来"]}  # fmt: skip


def item(**fields: Any) -> dict[str, Any]:
    """One upsert_memory item as the strict schema has the model write it (every field, nulls)."""
    base: dict[str, Any] = {
        "type": "self", "op": "create", "category": None, "key": None, "name": None, "relation": None,
        "status": None, "saved_kind": None, "title": None, "summary": "", "detail": None, "facts": [],
        "recent_conclusions": [], "open_questions": [], "remember": False, "message": None, "reason": "",
    }  # fmt: skip
    base.update(fields)
    return base


def answer(*items: dict[str, Any]) -> Any:
    return chat_reply(json.dumps({"objects": list(items)}, ensure_ascii=False))


@pytest.fixture
def server(install: Install, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as fake:
        monkeypatch.setenv("SAVENOW_LLM__BASE_URL", fake.base_url)
        monkeypatch.setenv("SAVENOW_LLM__MODEL", "fake-objects")
        monkeypatch.setenv("SAVENOW_LLM__API_KEY", KEY)
        monkeypatch.setenv("SAVENOW_LLM__MAX_RETRIES", "0")
        monkeypatch.setenv("SAVENOW_OBJECTS__EXTRACTOR", "llm")
        yield fake


def _extract(savenow: Runner, thread: int) -> tuple[int, dict[str, Any], str]:
    status, out, err = savenow("objects", "extract", "--json", *scope_flags(thread))
    return status, (json.loads(out) if out.strip() else {}), err


def test_the_llm_proposes_validated_objects_through_the_plan(
    install: Install, savenow: Runner, server: FakeLLMServer
) -> None:
    server.script(
        answer(
            item(category="communication_style", key="reply_length", summary="回复三句话以内", message=0),
            item(category="identity", key="hair_color", summary="黑色"),  # outside the vocabulary
            item(type="spaceship", summary="x"),
        )
    )
    status, data, _ = _extract(savenow, 22)
    assert status == 0 and data["extractor"] == "llm"
    assert [(o["type"], o["op"], o.get("key")) for o in data["objects"]] == [
        ("self", "create", "reply_length")
    ]
    assert any("hair_color" in why for why in data["dropped"]) and any(
        "spaceship" in why for why in data["dropped"]
    )
    assert install.object_files() == []  # a preview writes nothing
    request = server.requests[0].json
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["name"] == "upsert_memory"
    system, user = request["messages"][0]["content"], request["messages"][1]["content"]
    assert "宁缺毋滥" in system and "reply_length" in system and "quiet_hours" in system
    assert "你最近回复太长了" in user and "<current-objects>\n[]" in user
    status, _, _ = savenow("objects", "apply", "--json", *scope_flags(22))
    assert status == 0 and len(install.object_files()) == 1


def test_current_objects_are_sent_and_a_variant_name_is_asked_not_merged(
    install: Install, savenow: Runner, server: FakeLLMServer
) -> None:
    assert savenow("objects", "upsert", "--json-file", install.seed(ZHANG))[0] == 0
    before = {p: p.read_bytes() for p in install.object_files()}
    server.script(
        answer(
            item(
                type="relationship",
                name="张姐",
                relation="钟点工",
                summary="钟点工",
                facts=["每周三、周六上午来打扫"],
                message=0,
            )
        )
    )
    status, data, _ = _extract(savenow, 21)
    assert status == 0
    assert "张姐姐" in server.requests[0].json["messages"][1]["content"]
    [proposal] = data["objects"]
    assert proposal["op"] == "update" and proposal["name"] == "张姐姐" and proposal["variant"] == "张姐"
    assert {p: p.read_bytes() for p in install.object_files()} == before  # proposed, never merged


def test_the_cap_of_five_and_tombstones_hold_for_the_llm_too(
    install: Install, savenow: Runner, server: FakeLLMServer
) -> None:
    topic = {"type": "topic", "name": "old-plan", "status": "active", "summary": "一个旧计划"}
    savenow("objects", "upsert", "--json-file", install.seed(topic))
    assert savenow("objects", "forget", "old-plan")[0] == 0
    many = [item(type="topic", name=f"project-{i}", status="active", summary=f"项目 {i}") for i in range(6)]
    server.script(answer(item(type="topic", name="old-plan", status="active", summary="一个旧计划"), *many))
    status, data, _ = _extract(savenow, 24)
    assert status == 0
    names = [o["name"] for o in data["objects"]]
    assert names == [f"project-{i}" for i in range(5)]  # the model's order is its priority
    assert "old-plan: forgotten" in data["dropped"] and any("cap of 5" in why for why in data["dropped"])


def test_an_unusable_answer_twice_is_a_clear_error_and_nothing_is_written(
    install: Install, savenow: Runner, server: FakeLLMServer
) -> None:
    server.script(chat_reply("I think the user likes short replies."), chat_reply("still prose"))
    status, data, err = _extract(savenow, 22)
    assert status == 2 and data == {} and err.count("\n") == 1 and "upsert_memory" in err
    assert "not usable" in server.requests[1].json["messages"][-1]["content"]  # asked once more
    assert install.object_files() == [] and not (install.workspace / ".savenow" / "pending").exists()


def test_an_endpoint_failure_is_an_error_without_the_key_or_the_offline_fallback_when_asked(
    install: Install, savenow: Runner, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.script(error_reply(401, f"bad key {KEY}"))
    status, _, err = _extract(savenow, 24)
    assert status == 2 and "API key" in err and KEY not in err
    monkeypatch.setenv("SAVENOW_LLM__FALLBACK_TO_HEURISTIC", "true")
    server.script(error_reply(500, "down"))
    status, data, err = _extract(savenow, 24)
    assert status == 0 and data["extractor"] == "offline"
    assert [o["name"] for o in data["objects"]] == ["tide-notes"]  # the offline rules ran
    assert "offline extractor was used" in data["dropped"][0] and KEY not in json.dumps(data)


def test_auto_without_a_key_stays_offline(
    install: Install, savenow: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAVENOW_OBJECTS__EXTRACTOR", "auto")
    monkeypatch.setenv("SAVENOW_LLM__BASE_URL", "http://127.0.0.1:9/v1")  # never called: no key
    status, data, _ = _extract(savenow, 24)
    assert status == 0 and data["extractor"] == "offline" and data["objects"][0]["name"] == "tide-notes"
