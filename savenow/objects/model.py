"""What a memory object is (DESIGN §14): the four types, their fields, identity, validation.

``MemoryObject`` is the plain dataclass the store and the extractor pass around.
:func:`parse_upsert` turns the memory-interpret skill's ``upsert_memory`` JSON (one
object or a list) into objects, refusing bad input with one clear line
(:class:`ObjectInputError`, exit 2) before any file is touched.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ..errors import ObjectInputError
from ..messages import Text
from ..text.normalize import normalize

TYPES = ("self", "relationship", "topic", "saved")
TOPIC_STATUSES = ("active", "paused", "archived")
SAVED_KINDS = ("conversation_ref", "source_ref", "text_note", "arrangement")
LIST_FIELDS = ("facts", "recent_conclusions", "open_questions")
TEXT_FIELDS = ("summary", "detail")
MAX_OBJECTS_PER_CONVERSATION = 5
MAX_TEXT = 4000

# The fixed `self` vocabulary (shared/eval/OBJECTS.md): key -> category.
SELF_KEYS: dict[str, str] = {
    "name": "identity",
    "nickname": "identity",
    "city": "identity",
    "timezone": "identity",
    "occupation": "identity",
    "birthday": "identity",
    "language_preference": "preference",
    "diet": "preference",
    "units": "preference",
    "travel": "preference",
    "quiet_hours": "preference",
    "reminders": "preference",
    "reply_length": "communication_style",
    "emoji_use": "communication_style",
    "tone": "communication_style",
    "formatting": "communication_style",
    "work_hours": "working_style",
    "tools": "working_style",
    "confirmation": "working_style",
    "study_method": "working_style",
    "code_style": "working_style",
}

_PATHLIKE = re.compile(r"[/\\\x00-\x1f\x7f]|^\.|\.\.|^~")


@dataclass
class MemoryObject:
    type: str
    summary: str = ""
    category: str | None = None  # self
    key: str | None = None  # self
    name: str | None = None  # relationship, topic
    relation: str | None = None  # relationship
    status: str | None = None  # topic
    saved_kind: str | None = None  # saved
    title: str | None = None  # saved
    detail: str | None = None
    facts: list[str] = field(default_factory=list)
    recent_conclusions: list[str] = field(default_factory=list)
    open_questions: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    confidence: float | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)

    @property
    def label(self) -> str:
        """How a person reads this object's identity: a name, ``category/key`` or a title."""
        if self.type == "self":
            return f"{self.category}/{self.key}"
        if self.type == "saved":
            return self.title or ""
        return self.name or ""

    def lists(self) -> dict[str, list[str]]:
        return {name: getattr(self, name) for name in LIST_FIELDS}

    def to_json(self) -> dict[str, Any]:
        """The upsert shape: only the fields this type has and that are set."""
        data: dict[str, Any] = {"type": self.type}
        for name in _FIELDS_BY_TYPE[self.type]:
            value = getattr(self, name)
            if value not in (None, "", []):
                data[name] = list(value) if isinstance(value, list) else value
        return data


_COMMON = ("summary", "detail", "confidence", "sources")
_FIELDS_BY_TYPE: dict[str, tuple[str, ...]] = {
    "self": ("category", "key", *_COMMON),
    "relationship": ("name", "aliases", "relation", *_COMMON, "facts"),
    "topic": ("name", "aliases", "status", *_COMMON, "recent_conclusions", "open_questions"),
    "saved": ("saved_kind", "title", *_COMMON),
}


# -- identity ----------------------------------------------------------------------------------


def norm_name(text: str, *, fold_script: bool = True) -> str:
    """A name as identity compares it: NFKC, case-folded, Traditional Chinese folded onto
    Simplified (a name written in either script is one name), punctuation and spaces removed."""
    return normalize(text, fold_script=fold_script).replace(" ", "")


def identity_keys(obj: MemoryObject, *, fold_script: bool = True) -> list[str]:
    """Every normalized identity this object answers to (its name and its aliases)."""
    if obj.type == "self":
        return [f"self:{obj.category}:{obj.key}"]
    if obj.type == "saved":
        return [f"saved:{norm_name(obj.title or '', fold_script=fold_script)}"]
    names = [norm_name(n, fold_script=fold_script) for n in [obj.name or "", *obj.aliases]]
    return [f"{obj.type}:{name}" for name in names if name]


def identity_hash(key: str) -> str:
    """A tombstone holds this, never the name itself."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


# -- validation of outside JSON ----------------------------------------------------------------


def _bad(message: Text) -> ObjectInputError:
    return ObjectInputError(message)


Where = str | Text  # which object a message is about: "object 2", "pending object"


def _text(data: dict[str, Any], name: str, where: Where, *, required: bool = False) -> str | None:
    value = data.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise _bad(Text("objects.field_required", where=where, name=name))
        return None
    if not isinstance(value, str):
        raise _bad(Text("objects.field_not_string", where=where, name=name))
    if len(value) > MAX_TEXT:
        raise _bad(Text("objects.field_too_long", where=where, name=name, limit=MAX_TEXT))
    return unicodedata.normalize("NFC", value.strip())


def _name(data: dict[str, Any], name: str, where: Where) -> str:
    value = _text(data, name, where, required=True) or ""
    if _PATHLIKE.search(value) or "\n" in value or len(value) > 120:
        raise _bad(Text("objects.field_pathlike", where=where, name=name, value=value[:60]))
    return value


def _list(data: dict[str, Any], name: str, where: Where) -> list[str]:
    value = data.get(name)
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _bad(Text("objects.field_not_list", where=where, name=name))
    items = [unicodedata.normalize("NFC", item.strip()) for item in value if item.strip()]
    if any(len(item) > MAX_TEXT for item in items):
        raise _bad(Text("objects.item_too_long", where=where, name=name))
    return items


def _choice(value: str | None, allowed: tuple[str, ...], name: str, where: Where) -> str | None:
    if value is None:
        return None
    folded = value.strip().casefold()
    if folded not in allowed:
        raise _bad(
            Text("objects.bad_choice", where=where, name=name, allowed=", ".join(allowed), value=value)
        )
    return folded


def parse_object(data: Any, where: Where | None = None) -> MemoryObject:
    """One ``upsert_memory`` object, validated; bad input raises :class:`ObjectInputError`."""
    where = where or Text("objects.where.object")
    if not isinstance(data, dict):
        raise _bad(Text("objects.not_object", where=where))
    kind = data.get("type")
    if kind not in TYPES:
        raise _bad(Text("objects.unknown_type", where=where, kind=kind, types=", ".join(TYPES)))
    obj = MemoryObject(type=kind, summary=_text(data, "summary", where, required=True) or "")
    obj.detail = _text(data, "detail", where)
    if kind == "self":
        key = _name(data, "key", where)
        if key not in SELF_KEYS:
            raise _bad(Text("objects.unknown_self_key", where=where, key=key, keys=", ".join(SELF_KEYS)))
        category = _text(data, "category", where) or SELF_KEYS[key]
        if category != SELF_KEYS[key]:
            raise _bad(
                Text(
                    "objects.wrong_category", where=where, key=key, expected=SELF_KEYS[key], category=category
                )
            )
        obj.category, obj.key = category, key
    elif kind in ("relationship", "topic"):
        obj.name = _name(data, "name", where)
        obj.aliases = [a for a in _list(data, "aliases", where) if norm_name(a) != norm_name(obj.name)]
        for alias in obj.aliases:
            _name({"alias": alias}, "alias", where)
        if kind == "relationship":
            obj.relation = _text(data, "relation", where)
            obj.facts = _list(data, "facts", where)
        else:
            obj.status = _choice(_text(data, "status", where), TOPIC_STATUSES, "status", where)
            obj.recent_conclusions = _list(data, "recent_conclusions", where)
            obj.open_questions = _list(data, "open_questions", where)
    else:
        obj.title = _name(data, "title", where)
        obj.saved_kind = (
            _choice(_text(data, "saved_kind", where), SAVED_KINDS, "saved_kind", where) or "text_note"
        )
    confidence = data.get("confidence")
    if confidence is not None:
        if (
            isinstance(confidence, bool)
            or not isinstance(confidence, int | float)
            or not 0 <= confidence <= 1
        ):
            raise _bad(Text("objects.bad_confidence", where=where))
        obj.confidence = float(confidence)
    refs = data.get("source_refs", data.get("sources"))
    if refs is not None:
        if not isinstance(refs, list) or not all(isinstance(ref, dict) for ref in refs):
            raise _bad(Text("objects.bad_sources", where=where))
        obj.sources = [
            {str(k): v for k, v in ref.items() if isinstance(v, str | int | float | bool)} for ref in refs
        ]
    return obj


def parse_upsert(data: Any) -> list[MemoryObject]:
    """The ``upsert_memory`` shape: one object, a list, or ``{"objects": [...]}``."""
    if isinstance(data, dict) and isinstance(data.get("objects"), list):
        data = data["objects"]
    items = data if isinstance(data, list) else [data]
    if not items:
        raise _bad(Text("objects.none_given"))
    return [
        parse_object(item, Text("objects.where.item", number=index + 1)) for index, item in enumerate(items)
    ]


def _is_subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(char in it for char in short)


# Common English short forms that are not prefixes of the full name (general knowledge, not case data).
_NICKNAMES = {
    "mike": "michael", "bob": "robert", "rob": "robert", "bill": "william", "will": "william", "liz": "elizabeth",
    "beth": "elizabeth", "jim": "james", "jack": "john", "dick": "richard", "rick": "richard", "ted": "edward",
    "ned": "edward", "kate": "katherine", "katie": "katherine", "peggy": "margaret", "meg": "margaret",
    "tony": "anthony", "chuck": "charles", "hank": "henry", "sandy": "alexandra",
}  # fmt: skip
_CJK_SHORT_PREFIX = ("老", "小", "阿")
_TITLES = {"mr", "mrs", "ms", "miss", "dr", "prof", "uncle", "aunt", "auntie", "sir", "madam", "coach"}
_CJK_SHORT_SUFFIX = (
    "总",
    "哥",
    "姐",
    "叔",
    "姨",
    "老师",
    "工",
    "经理",
    "医生",
    "律师",
    "阿姨",
    "姐姐",
    "哥哥",
)


def _surname_form(short: str, long: str) -> bool:
    """老王 / 小王 / 王总 / 王哥 for 王建国 (a surname with a title or a familiar prefix); 小雯 / 雯雯 for
    李雯 (a given name's last character, doubled or with a familiar prefix)."""
    surname = long[0]
    if short[0] in _CJK_SHORT_PREFIX and short[1:] == surname:
        return True
    given = long[-1]
    if (
        len(short) == 2
        and len(long) in (2, 3)
        and short[1] == given
        and (short[0] == given or short[0] in _CJK_SHORT_PREFIX)
    ):
        return True
    return short[0] == surname and short[1:] in _CJK_SHORT_SUFFIX and len(long) in (2, 3)


def _same_surname(a: str, b: str) -> bool:
    """ "Ho" / "Ho", or an initial for it ("H." / "Ho")."""
    a, b = a.rstrip("."), b.rstrip(".")
    return a == b or (min(len(a), len(b)) == 1 and a[:1] == b[:1])


def near_name(a: str, b: str) -> bool:
    """Another form of the same name: a short form, a nickname stem, a full name (张姐 / 张姐姐,
    王姨 / 王阿姨, Dan / Daniel Ho). Never equal names: those are the same identity."""
    na, nb = norm_name(a), norm_name(b)
    if not na or not nb or na == nb:
        return False
    short, long = sorted((na, nb), key=len)
    if short.isascii() and long.isascii():
        words_a = [w for w in normalize(a).split() if w not in _TITLES] or normalize(a).split()
        words_b = [w for w in normalize(b).split() if w not in _TITLES] or normalize(b).split()
        if set(words_a) & set(words_b) and min(len(words_a), len(words_b)) == 1:
            return True  # "Daniel" / "Daniel Ho"
        if min(len(words_a), len(words_b)) >= 2 and not _same_surname(words_a[-1], words_b[-1]):
            return False  # "Daniel Park" / "Daniel Ho": two full names, two people
        first_a, first_b = sorted((words_a[0], words_b[0]), key=len)
        if _NICKNAMES.get(first_a) == first_b:
            return True
        return len(first_a) >= 3 and first_b.startswith(first_a)  # "Dan" / "Daniel"
    if len(short) < 2:
        return False
    if _surname_form(short, long) or _surname_form(long, short):
        return True
    return short[0] == long[0] and _is_subsequence(short, long) and len(long) - len(short) <= 2
