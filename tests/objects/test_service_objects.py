"""The service functions the Telegram layer will call: reply text (en/zh) and what buttons do."""

from __future__ import annotations

from datetime import timedelta

import pytest

from savenow.clock import Clock, parse_now
from savenow.config import load_settings
from savenow.errors import AccessDeniedError, NoPendingError, PendingExpiredError
from savenow.objects.model import parse_upsert
from savenow.service import Scope
from savenow.service.objects import ObjectsService
from tests.objects.conftest import GROUP, NOW, Install


def _service(clock: Clock) -> ObjectsService:
    settings = load_settings()
    # Chat users (DESIGN §3.1): 42 and 99 are allowed, 7 is an admin; nobody else is trusted.
    settings.telegram = settings.telegram.model_copy(
        update={"allowed_user_ids": [42, 99], "admin_user_ids": [7]}
    )
    return ObjectsService(settings, clock=clock)


def _scope(thread: int, user: str = "42", admin: bool = False) -> Scope:
    return Scope(
        chat_id=GROUP, thread_id=str(thread), user_id=user, chat_type="group", is_admin=admin, via="chat"
    )


@pytest.fixture
def clock() -> Clock:
    return Clock(fixed=parse_now(NOW))


def test_idle_proposal_posts_buttons_that_apply_once(install: Install, clock: Clock) -> None:
    service = _service(clock)
    reply = service.idle_proposal(_scope(24), lang="zh")
    assert reply is not None
    assert reply.text.startswith("从这段对话中整理出的记忆对象") and "tide-notes" in reply.text
    assert [b.action for b in reply.buttons] == ["objects_apply", "objects_cancel"]
    assert install.object_files() == []
    with pytest.raises(AccessDeniedError):  # only the requester (or an admin) may press
        service.press(_scope(24, user="99"), "objects_apply", reply.buttons[0].pending_id)
    done = service.press(_scope(24), "objects_apply", reply.buttons[0].pending_id, lang="en")
    assert done.text == "✅ Saved: 1 new, 0 updated, 0 unchanged."
    again = service.press(_scope(24), "objects_apply", reply.buttons[0].pending_id)
    assert again.text.startswith("Already applied")
    assert len(install.object_files()) == 1


def test_nothing_to_keep_posts_nothing(install: Install, clock: Clock) -> None:
    assert _service(clock).idle_proposal(_scope(25)) is None


def test_buttons_expire_and_belong_to_their_topic(install: Install, clock: Clock) -> None:
    service = _service(clock)
    reply = service.idle_proposal(_scope(24))
    assert reply is not None
    with pytest.raises(NoPendingError):  # another topic has its own (here: no) proposal
        service.press(_scope(23), "objects_apply", reply.buttons[0].pending_id)
    clock.advance(minutes=31)
    with pytest.raises(PendingExpiredError):
        service.press(_scope(24), "objects_apply", reply.buttons[0].pending_id)
    assert install.object_files() == []


def test_memory_command_lists_finds_forgets_with_confirmation_and_undoes(
    install: Install, clock: Clock
) -> None:
    service = _service(clock)
    service.upsert(parse_upsert([
        {"type": "relationship", "name": "朵朵", "relation": "family", "summary": "用户的女儿", "facts": ["对芒果过敏"]},
        {"type": "self", "key": "city", "summary": "Lives in Leeds"},
    ]))  # fmt: skip
    listing = service.memory_command(_scope(1), "", lang="en")
    assert listing.text.startswith("Memory objects (2):") and "朵朵" in listing.text
    assert "芒果" in service.memory_command(_scope(1), "芒果", lang="zh").text
    assert service.memory_command(_scope(1), "nothing-like-this", lang="zh").text.startswith("没有与")

    ask = service.memory_command(_scope(1), "forget 朵朵", lang="zh")
    assert ask.text.startswith("要忘掉「朵朵」吗") and [b.action for b in ask.buttons] == [
        "objects_apply",
        "objects_cancel",
    ]
    assert len(install.object_files()) == 2  # asking changes nothing
    cancelled = service.press(_scope(1), "objects_cancel", ask.buttons[1].pending_id, lang="en")
    assert cancelled.text.startswith("❌ Cancelled") and len(install.object_files()) == 2

    ask = service.memory_command(_scope(1), "forget 朵朵", lang="en")
    done = service.press(_scope(1), "objects_apply", ask.buttons[0].pending_id, lang="en")
    assert done.text.startswith("🗑 Forgot “朵朵”") and len(install.object_files()) == 1
    undone = service.memory_command(_scope(1), "undo", lang="zh")
    assert undone.text.startswith("↩️ 已撤销") and len(install.object_files()) == 2


def test_a_forgotten_saved_note_is_lifted_only_by_a_later_explicit_remember(
    install: Install, clock: Clock
) -> None:
    service = _service(clock)
    reply = service.idle_proposal(_scope(23))
    assert reply is not None
    service.press(_scope(23), "objects_apply", reply.buttons[0].pending_id)
    service.forget("家里 wifi 密码")
    clock.advance(days=1)
    # The same chat, re-read: its "记住" is older than the forget, so it does not bring the note back.
    assert service.idle_proposal(_scope(23)) is None
    assert install.object_files() == []


def test_decayed_confidence_is_shown_not_written(install: Install, clock: Clock) -> None:
    service = _service(clock)
    service.upsert(parse_upsert({"type": "self", "key": "city", "summary": "Leeds", "confidence": 0.9}))
    [path] = install.object_files()
    before = path.read_bytes()
    clock.fixed = clock.now() + timedelta(days=360)
    [item] = service.list_objects()
    assert item["confidence"] == pytest.approx(0.225)
    assert path.read_bytes() == before


def test_chat_users_follow_the_access_rule(install: Install, clock: Clock) -> None:
    """Strangers get nothing; forget of an unknown name answers in chat words; only its requester
    (or an admin) undoes a change made from the chat."""
    from savenow.errors import NotTrustedError, SaveNowError

    service = _service(clock)
    service.upsert(
        parse_upsert([{"type": "relationship", "name": "朵朵", "relation": "family", "summary": "女儿"}])
    )
    with pytest.raises(SaveNowError) as refused:
        service.memory_command(_scope(1, user="5"), "")
    assert "5" in refused.value.message("en") and not isinstance(refused.value, NotTrustedError)
    missing = service.memory_command(_scope(1), "forget 小明", lang="en")
    assert missing.text == "No memory object is called “小明”; /memory lists them." and not missing.buttons
    ask = service.memory_command(_scope(1), "forget 朵朵")
    service.press(_scope(1), "objects_apply", ask.buttons[0].pending_id)
    with pytest.raises(AccessDeniedError):
        service.memory_command(_scope(1, user="99"), "undo")
    assert service.memory_command(_scope(1, user="7"), "undo").text.startswith("↩️")  # an admin may
