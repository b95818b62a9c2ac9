"""The offline rules read a Traditional Chinese conversation, and propose in the user's own characters."""

from __future__ import annotations

from savenow.models import ChatMessage
from savenow.objects.heuristic import OfflineObjectExtractor


def _chat(*turns: tuple[str, str]) -> list[ChatMessage]:
    return [ChatMessage(role, text, f"2026-11-01T10:0{i}:00+08:00") for i, (role, text) in enumerate(turns)]  # type: ignore[arg-type]


def test_a_traditional_preference_is_found_and_kept_as_written() -> None:
    chat = _chat(
        ("user", "另外以後回覆我簡短一點，三句話以內就行"),
        ("assistant", "明白，以後回覆控制在三句話以內。"),
    )
    [candidate] = OfflineObjectExtractor().propose(chat, []).candidates
    assert (candidate.obj.type, candidate.obj.key) == ("self", "reply_length")
    assert candidate.obj.summary == "以後回覆我簡短一點，三句話以內就行"


def test_a_simplified_conversation_is_read_as_it_is() -> None:
    chat = _chat(
        ("user", "另外以后回复我简短一点，三句话以内就行"), ("assistant", "明白，以后回复控制在三句话以内。")
    )
    [candidate] = OfflineObjectExtractor().propose(chat, []).candidates
    assert candidate.obj.summary == "以后回复我简短一点，三句话以内就行"


def test_a_name_in_either_script_is_one_identity() -> None:
    from savenow.objects.model import MemoryObject, identity_keys

    traditional = MemoryObject(type="relationship", name="張姐", summary="s")
    simplified = MemoryObject(type="relationship", name="张姐", summary="s")
    assert identity_keys(traditional) == identity_keys(simplified)


def test_a_tombstone_written_before_the_fold_still_holds(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from savenow.objects.model import MemoryObject, identity_hash, norm_name
    from savenow.objects.store import ObjectStore

    as_written = identity_hash("relationship:" + norm_name("張姐", fold_script=False))
    stone = {"type": "relationship", "hashes": [as_written]}
    store = ObjectStore(tmp_path)
    assert store.tombstoned(MemoryObject(type="relationship", name="張姐", summary="s"), [stone]) == stone
    assert store.tombstoned(MemoryObject(type="relationship", name="李姐", summary="s"), [stone]) is None
