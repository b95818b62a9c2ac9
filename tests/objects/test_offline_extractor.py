"""The offline object extractor, one kind of conversation at a time (no rule is keyed on these words:
each case is a phrasing of a kind that OBJECTS.md describes)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from savenow.clock import Clock
from savenow.models import ChatMessage
from savenow.objects.extract import plan
from savenow.objects.heuristic import OfflineObjectExtractor
from savenow.objects.model import parse_upsert
from savenow.objects.store import ObjectStore


def _extract(
    tmp_path: Path, chat: list[str], before: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    store = ObjectStore(tmp_path, Clock(tz=UTC, fixed=datetime(2026, 11, 20, 20, tzinfo=UTC)))
    if before:
        store.upsert(parse_upsert(before))
    messages = [
        ChatMessage(role="user" if i % 2 == 0 else "assistant", text=text, timestamp="2026-11-20T10:00:00Z")
        for i, text in enumerate(chat)
    ]
    stored = store.load()
    return [
        p.to_json()
        for p in plan(OfflineObjectExtractor().propose(messages, stored).candidates, store, stored).proposals
    ]


def _writes(objects: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [
        (o["type"], o["op"], o.get("key") or o.get("name") or o.get("title") or "")
        for o in objects
        if o["op"] != "skip"
    ]


ERRANDS = ["what's the weather in Paris tomorrow?", "Sunny, 12°C.", "remind me at 6pm to call the plumber",
           "Reminder set.", "my son loves the new lego set lol", "Nice!", "ok thanks", "Bye!"]  # fmt: skip


def test_a_chat_of_errands_keeps_nothing(tmp_path: Path) -> None:
    assert _writes(_extract(tmp_path, ERRANDS)) == []


def test_only_the_final_preference_counts(tmp_path: Path) -> None:
    chat = ["以后回答都用表格吧", "好的。", "算了表格在手机上看不清，还是用分点列表", "明白。"]
    [obj] = _extract(tmp_path, chat)
    assert (obj["key"], obj["op"]) == ("formatting", "create") and "表格" not in obj["summary"]


def test_another_persons_preference_goes_to_them_never_to_self(tmp_path: Path) -> None:
    before = [{"type": "relationship", "name": "Grandpa Joe", "relation": "family", "summary": "grandfather"}]
    chat = ["Grandpa Joe can't have anything with grapefruit because of his meds", "Good to know."]
    assert _writes(_extract(tmp_path, chat, before)) == [("relationship", "update", "Grandpa Joe")]


@pytest.mark.parametrize(
    ("stored", "said"),
    [("王建国", "老王下个月调去北京分公司了，以后负责那边的运维"),
     ("Michael Chen", "Mike told me he's moving to Berlin in March for a new job at Zalando")],
)  # fmt: skip
def test_another_form_of_a_stored_name_is_an_update_under_the_stored_name(
    tmp_path: Path, stored: str, said: str
) -> None:
    before = [{"type": "relationship", "name": stored, "relation": "friend", "summary": "s"}]
    [obj] = _extract(tmp_path, [said, "OK."], before)
    assert (obj["op"], obj["name"]) == ("update", stored) and obj["variant"] in said


def test_a_new_person_needs_a_role_and_a_durable_fact(tmp_path: Path) -> None:
    assert _writes(_extract(tmp_path, ["my friend Jake is visiting next week", "Fun!"])) == []
    chat = ["Sofia is our new product manager, she owns the roadmap from now on", "Got it."]
    assert _writes(_extract(tmp_path, chat)) == [("relationship", "create", "Sofia")]


@pytest.mark.parametrize(
    ("said", "status"),
    [("记账 app 先放一放吧，最近工作太忙，等过年再说", "paused"),
     ("we're shutting down the bookkeeping app for good, nobody uses it", "archived"),
     ("I'm getting back to the bookkeeping app this week, finally", "active")],
)  # fmt: skip
def test_a_topic_status_change_is_an_update_with_the_status(tmp_path: Path, said: str, status: str) -> None:
    before = [{"type": "topic", "name": "家庭记账 app" if has_cjk(said) else "Bookkeeping app",
               "status": "active" if status != "active" else "paused", "summary": "s"}]  # fmt: skip
    [obj] = _extract(tmp_path, [said, "OK."], before)
    assert (obj["op"], obj["status"]) == ("update", status)


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_remember_this_makes_a_saved_note_unless_it_is_already_stored(tmp_path: Path) -> None:
    chat = ["remember this: the gate code for the storage unit is 4471#", "Saved."]
    [obj] = _extract(tmp_path, chat)
    assert (obj["type"], obj["op"]) == ("saved", "create") and "gate code" in obj["title"]
    before = [
        {"type": "saved", "saved_kind": "text_note", "title": "Storage unit", "summary": "gate code 4471#"}
    ]
    assert [(o["type"], o["op"]) for o in _extract(tmp_path / "b", chat, before)] == [("saved", "skip")]


def test_a_stable_fact_said_as_remember_this_goes_to_self(tmp_path: Path) -> None:
    chat = ["我什么都吃，就是不吃香菜。以后点外卖都记着", "好的。"]
    assert _writes(_extract(tmp_path, chat)) == [("self", "create", "diet")]


def test_a_restated_stored_fact_is_a_skip(tmp_path: Path) -> None:
    before = [{"type": "self", "category": "identity", "key": "city", "summary": "用户住在杭州西湖区"}]
    assert [
        (o["key"], o["op"]) for o in _extract(tmp_path, ["我住在杭州，周末去哪玩好", "西溪。"], before)
    ] == [("city", "skip")]


def test_a_statement_the_user_declined_to_record_stays_out(tmp_path: Path) -> None:
    before = [{"type": "topic", "name": "订单服务拆分", "status": "active", "summary": "s"}]
    chat = [
        "库存扣减我倾向放订单服务这边，先用本地事务",
        "要我记到「订单服务拆分」的结论里吗？",
        "先别，还没对齐",
        "好。",
    ]
    assert _writes(_extract(tmp_path, chat, before)) == []


def test_at_most_five_writes(tmp_path: Path) -> None:
    chat = ["I'm Priyanka", "Hi!", "I work as a data engineer at Monzo", "Cool.", "I live in London, Hackney", "Nice.",
            "please always reply in short answers", "Sure.", "never message me after 10pm", "Got it.",
            "no emoji ever please", "OK.", "my manager is Tariq, he's super strict about deadlines", "Noted."]  # fmt: skip
    assert len(_writes(_extract(tmp_path, chat))) == 5
