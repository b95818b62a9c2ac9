from pathlib import Path

import pytest

from savenow.errors import InvalidSessionKeyError, SessionNotFoundError, SessionResolutionError
from savenow.sessions.openclaw import OpenClawFileStore
from savenow.sessions.resolve import SessionCatalog

from .storegen import BASE_MS, GROUP, StoreBuilder, assistant, conversation, topic_key


def catalog_of(*folders: Path) -> SessionCatalog:
    stores = [OpenClawFileStore(folders[0])]
    stores += [OpenClawFileStore(folder, source="recorder") for folder in folders[1:]]
    return SessionCatalog(stores, agent_id="main")


def resolve_topic(catalog: SessionCatalog, thread: str, chat: str = GROUP):
    return catalog.resolve(chat_id=chat, thread_id=thread, chat_type="group")


def test_one_topic_session(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(topic_key(42), conversation(2), topic_file="42", chatType="group")
    builder.add(topic_key(43), conversation(2), topic_file="43", updated_at=BASE_MS + 10**6)
    builder.write()
    catalog = catalog_of(tmp_path)
    info = resolve_topic(catalog, "42")
    assert info.key == topic_key(42) and info.source == "openclaw"
    assert [m.text for m in catalog.read_messages(info, 150).messages][-1] == "msg assistant 1"


def test_several_candidates_newest_wins(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(topic_key(42), conversation(1), topic_file="42", updated_at=BASE_MS)
    thread_ctx = {"channel": "telegram", "to": f"telegram:{GROUP}", "threadId": "42"}
    builder.add(
        f"agent:main:telegram:group:{GROUP}",
        conversation(1),
        updated_at=BASE_MS + 500,
        deliveryContext=thread_ctx,
    )
    builder.add("agent:main:other", conversation(1), updated_at=BASE_MS + 900, lastThreadId=42, lastTo=GROUP)
    builder.write()
    catalog = catalog_of(tmp_path)
    assert [c.key for c in catalog.candidates(GROUP, "42")] == [
        "agent:main:other",
        f"agent:main:telegram:group:{GROUP}",
        topic_key(42),
    ]
    assert resolve_topic(catalog, "42").key == "agent:main:other"


@pytest.mark.parametrize(
    "key",
    [
        f"agent:main:telegram:slash:{GROUP}:topic:42",
        "cron:nightly",
        "agent:main:cron:nightly:topic:42",
        "hook:9f1c2d3e",
        "node-abc",
        "agent:main:subagent:x:topic:42",
        f"agent:main:telegram:group:{GROUP}:topic:42:heartbeat",
    ],
)
def test_excluded_kinds_are_never_picked(tmp_path: Path, key: str) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(topic_key(42), conversation(1), topic_file="42", updated_at=BASE_MS)
    ctx = {"to": f"telegram:{GROUP}", "threadId": 42}
    builder.add(key, conversation(1), updated_at=BASE_MS + 10**6, deliveryContext=ctx)
    builder.write()
    catalog = catalog_of(tmp_path)
    assert [c.key for c in catalog.candidates(GROUP, "42")] == [topic_key(42)]
    assert resolve_topic(catalog, "42").key == topic_key(42)
    assert (
        catalog.resolve(chat_id=GROUP, thread_id="42", explicit_key=key).key == key
    )  # still reachable by key


def test_sessions_without_a_user_message_are_skipped(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(topic_key(42), conversation(1), topic_file="42", updated_at=BASE_MS)
    ctx = {"to": f"telegram:{GROUP}", "threadId": 42}
    builder.add(
        "agent:main:announce", [assistant("scheduled digest")], updated_at=BASE_MS + 5, deliveryContext=ctx
    )
    builder.add("agent:main:no-transcript", None, updated_at=BASE_MS + 9, deliveryContext=ctx)
    builder.write()
    assert resolve_topic(catalog_of(tmp_path), "42").key == topic_key(42)


def test_group_message_without_thread_is_refused_with_next_steps(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(topic_key(42), conversation(1), topic_file="42")
    builder.write()
    catalog = catalog_of(tmp_path)
    with pytest.raises(SessionResolutionError) as caught:
        catalog.resolve(chat_id=GROUP, thread_id=None, chat_type=None)  # inferred: negative id = group
    for text in (caught.value.en, caught.value.zh):
        assert "/savenow list" in text and "/savenow <sessionKey>" in text
    # /savenow list outside a topic still shows the chat's sessions
    assert [c.key for c in catalog.candidates(GROUP, None)] == [topic_key(42)]


def test_topic_without_sessions_is_refused(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(topic_key(42), conversation(1), topic_file="42")
    builder.write()
    with pytest.raises(SessionResolutionError, match="/savenow list"):
        resolve_topic(catalog_of(tmp_path), "99")


def test_explicit_key(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(topic_key(42), conversation(1), topic_file="42")
    builder.add(topic_key(7, chat="-100999"), conversation(1), topic_file="7")
    builder.write()
    info = catalog_of(tmp_path).resolve(
        chat_id=GROUP, thread_id="42", chat_type="group", explicit_key=f" {topic_key(7, chat='-100999')} "
    )
    assert info.key == topic_key(7, chat="-100999")


def test_unknown_key_names_the_key_and_suggests_list(tmp_path: Path) -> None:
    StoreBuilder(tmp_path).write()
    with pytest.raises(SessionNotFoundError) as caught:
        catalog_of(tmp_path).resolve(chat_id=GROUP, thread_id="1", explicit_key="agent:main:nope")
    assert "agent:main:nope" in caught.value.en and "/savenow list" in caught.value.en
    assert "agent:main:nope" in caught.value.zh


def test_path_like_key_refused_before_lookup(tmp_path: Path) -> None:
    StoreBuilder(tmp_path).write()
    with pytest.raises(InvalidSessionKeyError):
        catalog_of(tmp_path).resolve(chat_id=GROUP, thread_id="1", explicit_key="../../sessions.json")


def test_target_key_wins_over_everything(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add(topic_key(42), conversation(1), topic_file="42")
    builder.add("agent:main:main", conversation(1))
    builder.write()
    info = catalog_of(tmp_path).resolve(
        chat_id=GROUP, thread_id="42", explicit_key=topic_key(42), target_key="agent:main:main"
    )
    assert info.key == "agent:main:main"


def test_direct_chat_resolves_to_its_direct_session_then_main(tmp_path: Path) -> None:
    builder = StoreBuilder(tmp_path)
    builder.add("agent:main:main", conversation(1), updated_at=BASE_MS + 100)
    builder.add("agent:main:telegram:direct:555", conversation(1), updated_at=BASE_MS)
    builder.write()
    catalog = catalog_of(tmp_path)
    assert catalog.resolve(chat_id="555", thread_id=None).key == "agent:main:telegram:direct:555"
    assert catalog.resolve(chat_id=556, thread_id=None, chat_type="direct").key == "agent:main:main"


def test_direct_chat_with_nothing_is_refused(tmp_path: Path) -> None:
    StoreBuilder(tmp_path).write()
    with pytest.raises(SessionResolutionError, match="/savenow <sessionKey>"):
        catalog_of(tmp_path).resolve(chat_id="555", thread_id=None)


def test_openclaw_store_wins_recorder_fills_gaps(tmp_path: Path) -> None:
    openclaw, recorder = tmp_path / "openclaw", tmp_path / "recorder"
    main = StoreBuilder(openclaw)
    main.add(topic_key(42), conversation(1, prefix="openclaw"), topic_file="42", updated_at=BASE_MS)
    main.write()
    rec = StoreBuilder(recorder)
    rec.add(topic_key(42), conversation(1, prefix="recorded"), topic_file="42", updated_at=BASE_MS + 10**6)
    rec.add(topic_key(43), conversation(1, prefix="recorded"), topic_file="43")
    rec.write()
    catalog = catalog_of(openclaw, recorder)
    first = resolve_topic(catalog, "42")
    assert first.source == "openclaw"
    assert catalog.read_messages(first, 10).messages[0].text == "openclaw user 0"
    second = resolve_topic(catalog, "43")
    assert second.source == "recorder"
    assert catalog.read_messages(second, 10).messages[0].text == "recorded user 0"
    assert len(catalog.list_sessions()) == 2


def test_missing_dirs_are_empty(tmp_path: Path) -> None:
    catalog = catalog_of(tmp_path / "a", tmp_path / "b")
    assert catalog.list_sessions() == []
    with pytest.raises(SessionResolutionError):
        resolve_topic(catalog, "42")


def test_from_settings_uses_both_dirs(tmp_path: Path) -> None:
    from savenow.config import Settings

    settings = Settings(workspace=tmp_path / "ws", sessions_dir=tmp_path / "oc")
    catalog = SessionCatalog.from_settings(settings)
    assert [getattr(s, "source", None) for s in catalog.stores] == ["openclaw", "recorder"]
    assert catalog.stores[1].sessions_dir == tmp_path / "ws" / ".savenow" / "sessions"
