"""Extraction of memory objects: the interface, and the planning step every extractor shares.

An :class:`ObjectExtractor` reads a finished conversation and the current objects and
proposes :class:`Candidate` objects. :func:`plan` then has the last word, the same for
the offline rules and for an LLM: identity (create vs update, near-matches shown as
"update X?"), tombstones (a forgotten object is not proposed again unless the user
explicitly asked to remember it after forgetting), superseded values (a corrected value
never comes back), already-stored content (skip), and the cap of 5 writes.

:func:`.engines.build_object_extractor` picks one by ``objects.extractor`` (auto | heuristic |
llm): the offline rules (:mod:`.heuristic`) or the LLM (:mod:`.llm`, the memory-interpret prompt
with the current objects and ``upsert_memory`` as structured output); both end in :func:`plan`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..messages import Localized, Text
from ..models import ChatMessage
from ..text.cjk import han_ngrams
from ..text.normalize import normalize
from .model import MAX_OBJECTS_PER_CONVERSATION, MemoryObject, norm_name
from .store import ObjectStore, Stored, _parse_time
from .wording import CHANGED, RESTATE, UNCHANGED, contains_stored, salient_tokens


@dataclass
class Candidate:
    obj: MemoryObject
    priority: float = 0.0  # higher first when more than five want in
    reason: str = ""
    remember: bool = False  # the user explicitly asked to remember this
    at: str | None = None  # when the decisive message was sent (ISO-8601)
    variant: str | None = None  # the name the user used, when it only near-matches a stored one


@dataclass
class Proposed:
    """What one ``propose`` call returns: its candidates, what it refused, and which extractor ran.

    Returned rather than kept on the extractor, so one shared extractor serves calls from many threads."""

    candidates: list[Candidate] = field(default_factory=list)
    dropped: list[str | Localized] = field(
        default_factory=list
    )  # refused before planning (LLM checks, fallback)
    extractor: str = "offline"  # "offline" or "llm": the one whose candidates these are


@dataclass
class Proposal:
    """One line of the preview: what apply would do."""

    obj: MemoryObject
    op: str  # create | update | skip
    reason: str = ""
    target_id: str | None = None
    variant: str | None = None  # "update 王阿姨?" — the user said 王姨
    remember: bool = False

    def to_json(self) -> dict[str, Any]:
        data = {"type": self.obj.type, "op": self.op, **self.obj.to_json()}
        data["type"] = self.obj.type
        data.pop("sources", None)
        if self.reason:
            data["reason"] = self.reason
        if self.target_id:
            data["id"] = self.target_id
        if self.variant:
            data["variant"] = self.variant
        if self.remember:
            data["remember"] = True
        return data


@dataclass
class Plan:
    proposals: list[Proposal] = field(default_factory=list)
    dropped: list[str | Localized] = field(default_factory=list)  # over the cap, forgotten, superseded

    @property
    def writes(self) -> list[Proposal]:
        return [p for p in self.proposals if p.op != "skip"]


class ObjectExtractor(Protocol):
    name: str

    def propose(self, messages: Sequence[ChatMessage], stored: Sequence[Stored]) -> Proposed:
        """Candidates from one finished conversation; never writes anything, keeps no state between calls."""
        ...


def objects_index(stored: Sequence[Stored]) -> list[dict[str, Any]]:
    """The memory index an extractor is given: every object in the upsert shape."""
    return [{"id": s.id, **s.obj.to_json()} for s in stored]


def plan(candidates: Sequence[Candidate], store: ObjectStore, stored: Sequence[Stored]) -> Plan:
    result = Plan()
    stones = store.tombstones()
    writes: list[tuple[float, Proposal]] = []
    seen: set[str] = set()
    for cand in candidates:
        proposal = _resolve(cand, store, list(stored), stones)
        if proposal is None:
            result.dropped.append(Text("objects.dropped.forgotten", label=cand.obj.label))
            continue
        key = f"{proposal.op != 'skip'}:{proposal.obj.type}:{norm_name(proposal.obj.label)}"
        if key in seen:
            continue
        seen.add(key)
        if proposal.op == "skip":
            result.proposals.append(proposal)
        else:
            writes.append((cand.priority, proposal))
    writes.sort(key=lambda item: -item[0])
    for _, proposal in writes[:MAX_OBJECTS_PER_CONVERSATION]:
        result.proposals.append(proposal)
    result.dropped.extend(
        Text("objects.dropped.over_cap", label=p.obj.label, cap=MAX_OBJECTS_PER_CONVERSATION)
        for _, p in writes[MAX_OBJECTS_PER_CONVERSATION:]
    )
    order = {id(p): i for i, p in enumerate(result.proposals)}
    result.proposals.sort(key=lambda p: (p.op == "skip", order[id(p)]))
    return result


def _resolve(
    cand: Candidate, store: ObjectStore, stored: list[Stored], stones: list[dict[str, Any]]
) -> Proposal | None:
    obj = cand.obj
    existing = store.match(obj, stored, same_saved_note=True)
    variant = cand.variant
    if existing is None and obj.type in ("relationship", "topic"):
        near = store.near(obj, stored)
        if near is not None:
            existing, variant = near, obj.name
    if existing is None:
        stone = store.tombstoned(obj, stones)
        if stone is not None and not (cand.remember and _after(cand.at, stone.get("forgotten_at"))):
            return None
        return Proposal(obj=obj, op="create", reason=cand.reason, remember=cand.remember)
    return _update(cand, existing, variant)


def _after(at: str | None, forgotten_at: Any) -> bool:
    when, then = _parse_time(at), _parse_time(forgotten_at)
    return when is not None and then is not None and when > then


def _update(cand: Candidate, existing: Stored, variant: str | None) -> Proposal:
    old = existing.obj
    new = cand.obj
    dead = {(s.get("field"), norm_name(str(s.get("value", "")))) for s in existing.parsed.superseded}
    merged = MemoryObject(**{**old.__dict__, "facts": [], "recent_conclusions": [], "open_questions": [],
                             "aliases": [], "sources": []})  # fmt: skip
    changed = False
    fresh_summary = new.summary and ("summary", norm_name(new.summary)) not in dead
    if old.type in ("self", "saved") and fresh_summary and not _covered(new.summary, old):
        merged.summary, changed = new.summary, True
    names = normalize(" ".join([old.name or "", *old.aliases]))
    known = " ".join([old.name or "", *old.aliases, old.summary, old.detail or "", *old.facts,
                      *old.recent_conclusions, *old.open_questions])  # fmt: skip
    for name in ("facts", "recent_conclusions", "open_questions"):
        have = {norm_name(item) for item in getattr(old, name)}
        fresh = [
            i
            for i in getattr(new, name)
            if norm_name(i) not in have
            and (name, norm_name(i)) not in dead
            and not _restates(i, known, names)
        ]
        setattr(merged, name, fresh)
        changed |= bool(fresh)
    if new.status and new.status != old.status:
        merged.status, changed = new.status, True
    else:
        merged.status = None
    if variant:
        merged.aliases = [variant]
    merged.name = old.name
    op = "update" if changed else "skip"
    reason = cand.reason if changed else "already stored"
    if variant and changed:
        reason = f"update {old.label}? (said as {variant})"
    return Proposal(obj=merged, op=op, reason=reason, target_id=existing.id, variant=variant if changed else None,
                    remember=cand.remember)  # fmt: skip


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")  # whole numbers: the 6 of "6 学分" is not inside "2026"


def _restates(item: str, known: str, names: str) -> bool:
    """A fact or conclusion that only says again what is stored: every identifier, number and proper
    word of it is already there, or (Chinese) nearly all of its character pairs are."""
    if CHANGED.search(item):
        return False  # "Priya left Monzo": the same words, a new fact
    tokens = [t for t in salient_tokens(item) if normalize(t) not in names]  # the name itself says nothing
    stored = normalize(known)
    numbers = _NUMBER.findall(normalize(item))
    if not set(numbers) <= set(_NUMBER.findall(stored)):
        return False  # "还差 6 学分": a number the stored text does not hold is news
    if UNCHANGED.search(item) and (numbers or tokens):
        return True  # "还是 2027 年 6 月，没变": the user says the stored value holds
    if tokens:
        return all(normalize(t) in stored for t in tokens) and len(tokens) >= 2
    pairs = han_ngrams(norm_name(item))
    if len(pairs) < 4:
        return False
    return len(pairs & han_ngrams(norm_name(known))) / len(pairs) >= 0.6


def _covered(summary: str, old: MemoryObject) -> bool:
    """Every identifier, number and Latin word of the new value is already in the stored text, or
    the user says the stored value again ("还是老样子 不吃辣" for "用户不吃辣")."""
    if RESTATE.search(summary) and contains_stored(summary, old.summary):
        return True
    tokens = salient_tokens(summary)
    stored = normalize(" ".join([old.summary, old.detail or ""]))
    if tokens:
        return all(normalize(t) in stored for t in tokens)
    # Chinese without identifiers: most of the value's character pairs (first person aside) already stored.
    mine = norm_name(summary).replace("我", "").replace("用户", "")
    pairs = {mine[i : i + 2] for i in range(len(mine) - 1)}
    if not pairs:
        return True
    return sum(pair in norm_name(old.summary) for pair in pairs) / len(pairs) >= 0.5
