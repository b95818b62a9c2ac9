"""One Markdown file per object: YAML frontmatter for the fields, ``## `` sections for the lists.

    ---
    id: relationship-3f2a9c1d
    type: relationship
    name: 王阿姨
    aliases: [王姨]
    ...
    ---
    # 王阿姨

    ## Facts
    - 每周二、周五来

Only two things in a file are savenow's: the frontmatter block (re-rendered on each
write, keys it does not know kept) and the bullets of the list sections it manages
(``## Facts``, ``## Recent conclusions``, ``## Open questions``). New bullets go after
the section's last bullet, a superseded bullet's line is taken out; every other byte —
the user's own sections, paragraphs, comments, line endings, a BOM — stays as it was.
Identity comes from the frontmatter, so a renamed file is still the same object.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import yaml

from .model import LIST_FIELDS, MemoryObject, norm_name

SECTION_TITLES = {
    "facts": "Facts",
    "recent_conclusions": "Recent conclusions",
    "open_questions": "Open questions",
}
_SECTION_ALIASES = {
    "facts": "facts",
    "事实": "facts",
    "recent conclusions": "recent_conclusions",
    "conclusions": "recent_conclusions",
    "最近结论": "recent_conclusions",
    "结论": "recent_conclusions",
    "open questions": "open_questions",
    "待定问题": "open_questions",
    "待解决问题": "open_questions",
}
META_ORDER = (
    "id", "type", "category", "key", "name", "aliases", "relation", "saved_kind", "title",
    "status", "confidence", "created", "updated", "confirmed", "rev", "summary", "detail",
    "sources", "superseded",
)  # fmt: skip
_BULLET = re.compile(r"^[-*+] (.*?)\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass
class ObjectFile:
    """A parsed object file: the frontmatter, the body lines (endings kept) and the object."""

    meta: dict[str, Any]
    body: list[str]
    bom: str = ""
    newline: str = "\n"
    obj: MemoryObject = field(default_factory=lambda: MemoryObject(type="saved"))

    @property
    def id(self) -> str:
        return str(self.meta.get("id", ""))

    @property
    def superseded(self) -> list[dict[str, Any]]:
        items = self.meta.get("superseded") or []
        return [item for item in items if isinstance(item, dict)]

    def render(self) -> str:
        nl = self.newline
        ordered = {
            k: self.meta[k] for k in META_ORDER if k in self.meta and self.meta[k] not in (None, [], "")
        }
        ordered.update({k: v for k, v in self.meta.items() if k not in META_ORDER})
        dumped = yaml.safe_dump(ordered, allow_unicode=True, sort_keys=False, width=100000)
        front = dumped.replace("\n", nl)
        return f"{self.bom}---{nl}{front}---{nl}" + "".join(self.body)


def _plain(value: Any) -> Any:
    """YAML dates and times back to ISO strings (a user may write them unquoted)."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def split_lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def parse(text: str) -> ObjectFile | None:
    """The object file in ``text``; None when it has no savenow frontmatter (a user's own note)."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = split_lines(text[len(bom) :])
    if not lines or lines[0].rstrip("\r\n") != "---":
        return None
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    for end in range(1, len(lines)):
        if lines[end].rstrip("\r\n") == "---":
            break
    else:
        return None
    try:
        meta = yaml.safe_load("".join(lines[1:end]))
    except yaml.YAMLError:
        return None
    if not isinstance(meta, dict) or meta.get("type") not in ("self", "relationship", "topic", "saved"):
        return None
    meta = _plain(meta)
    body = lines[end + 1 :]
    parsed = ObjectFile(meta=meta, body=body, bom=bom, newline=newline)
    parsed.obj = _object(meta, body)
    return parsed


def _strs(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(item) for item in value or [] if item is not None]


def _object(meta: dict[str, Any], body: list[str]) -> MemoryObject:
    obj = MemoryObject(type=str(meta["type"]))
    for name in ("summary", "category", "key", "name", "relation", "status", "saved_kind", "title", "detail"):
        value = meta.get(name)
        setattr(obj, name, None if value is None else str(value))
    obj.summary = obj.summary or ""
    obj.aliases = _strs(meta.get("aliases"))
    confidence = meta.get("confidence")
    obj.confidence = float(confidence) if isinstance(confidence, int | float) else None
    obj.sources = [s for s in meta.get("sources") or [] if isinstance(s, dict)]
    for name, items in section_bullets(body).items():
        setattr(obj, name, items)
    return obj


def _sections(body: list[str]) -> dict[str, tuple[int, int]]:
    """Managed list field -> (heading line index, end index) in the body."""
    found: dict[str, tuple[int, int]] = {}
    current: str | None = None
    start = 0
    in_fence = False
    for index, line in enumerate(body):
        if _FENCE.match(line):
            in_fence = not in_fence
        if in_fence or not line.startswith("#"):
            continue
        if line.startswith(("## ", "# ")):
            if current is not None and current not in found:
                found[current] = (start, index)
            title = line.lstrip("#").strip().casefold()
            current = _SECTION_ALIASES.get(title) if line.startswith("## ") else None
            start = index
    if current is not None and current not in found:
        found[current] = (start, len(body))
    return found


def section_bullets(body: list[str]) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for name, (start, end) in _sections(body).items():
        items = []
        for line in body[start + 1 : end]:
            match = _BULLET.match(line.rstrip("\r\n"))
            if match and match.group(1):
                items.append(match.group(1))
        result[name] = items
    return result


def new_body(obj: MemoryObject, newline: str = "\n") -> list[str]:
    lines = [f"# {obj.label}{newline}"]
    for name in LIST_FIELDS:
        items = getattr(obj, name)
        if items:
            lines.append(newline)
            lines.append(f"## {SECTION_TITLES[name]}{newline}")
            lines.extend(f"- {item}{newline}" for item in items)
    return lines


def add_bullets(body: list[str], name: str, items: list[str], newline: str) -> list[str]:
    """``body`` with ``items`` appended to section ``name`` (created at the end when missing)."""
    if not items:
        return body
    new_lines = [f"- {item}{newline}" for item in items]
    sections = _sections(body)
    if name not in sections:
        tail = list(body)
        if tail and not tail[-1].endswith(("\n", "\r")):
            tail[-1] += newline
        if tail and tail[-1].strip():
            tail.append(newline)
        return [*tail, f"## {SECTION_TITLES[name]}{newline}", *new_lines]
    start, end = sections[name]
    last = start
    for index in range(start + 1, end):
        if _BULLET.match(body[index].rstrip("\r\n")):
            last = index
    at = last + 1
    result = list(body)
    if at > 0 and not result[at - 1].endswith(("\n", "\r")):
        result[at - 1] += newline
    result[at:at] = new_lines
    return result


def drop_bullets(body: list[str], name: str, items: list[str]) -> list[str]:
    """``body`` without the bullet lines of section ``name`` whose text is one of ``items``."""
    sections = _sections(body)
    if name not in sections or not items:
        return body
    keys = {norm_name(item) for item in items}
    start, end = sections[name]
    keep = []
    for index, line in enumerate(body):
        match = _BULLET.match(line.rstrip("\r\n")) if start < index < end else None
        if match and norm_name(match.group(1)) in keys:
            continue
        keep.append(line)
    return keep
