"""Machine text in a chat: pasted URLs, log lines, stack traces, shell prompts, command output.

People paste these without code fences all the time. They are evidence (a note
may quote the error string a person wrote *about* them), but a line that is
itself machine output is never a durable note: it must not seed one and is not
used as a bullet. The tests here look at the *shape* of a line — a leading
timestamp, a log level, a traceback frame, a prompt, aligned columns, a URL with
nothing around it — never at what a particular log says.
"""

from __future__ import annotations

import re

from ...text.cjk import HAN
from .cache import text_cache

__all__ = ["is_machine_line", "is_machine_text"]

_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_TIMESTAMP_START = re.compile(
    r"^\s*[\[(]?(?:"
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[ T_]\d{1,2}:\d{2}"  # 2026-11-18 09:31 / 2026/10/17 09:03:41
    rf"|{_MONTH}\s+\d{{1,2}}\s+\d{{1,2}}:\d{{2}}:\d{{2}}"  # syslog: Nov 26 09:58:11
    r"|\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\s"  # 09:58:11.123 message
    r"|\d{10,13}(?:\.\d+)?\s"  # epoch stamps
    r")",
)
_LEVEL = re.compile(
    r"^\s*[\[(]?(?:ERROR|ERR|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL|CRITICAL|PANIC|NOTICE)[\])]?(?:[\s:|\]]|$)"
    r"|^\s*\{\s*\"(?:level|ts|time|timestamp|msg|severity)\"\s*:",
)
_LEVEL_FIELD = re.compile(r"\blevel=(?:error|warn(?:ing)?|info|debug|fatal)\b")
_TRACE = re.compile(
    r"^\s*Traceback \(most recent call last\)"
    r"|^\s*File \"[^\"]+\", line \d+"
    r"|^\s*at [\w$.<>\[\]/]+(?:\.[\w$<>]+)*\s?\([^)]*(?::\d+|Native Method|Unknown Source)[^)]*\)\s*$"
    r"|^\s*at (?:async )?[\w$.<>]+ \(?(?:file://|/|[A-Za-z]:\\|node:)"
    r"|^\s*(?:[\w]+\.)+[A-Z]\w*(?:Error|Exception)\b(?::|$)"  # sqlite3.OperationalError: …
    r"|^\s*[A-Z]\w*(?:Error|Exception)(?::\s|$)"  # ModuleNotFoundError: No module named …
    r"|^\s*(?:goroutine \d+ \[|panic: |thread '[^']+' panicked at )"
    r"|^\s*Caused by: ",
)
_PROMPT = re.compile(r"^\s*(?:\$|❯|➜|>>>|PS [A-Z]:\\[^>]*>)\s+\S|^\s*[\w.-]+@[\w.-]+(?::[^\s$#]*)?[$#]\s+\S")
_HTTP_STATUS = re.compile(r"^\s*HTTP/\d(?:\.\d)?\s+\d{3}\b")
_TABLE_RULE = re.compile(r"^\s*[-+=|:─━┼┬┴]{6,}\s*$")
_COLUMNS = re.compile(r"\S+(?: {2,}|\t)\S+(?: {2,}|\t)\S+")
_URL = re.compile(r"<?https?://\S+>?")
# Every pattern above but _LEVEL_FIELD, _COLUMNS and _URL starts with "^": .match() says the same as .search().
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# "registry=https://…" / "url: https://…": a setting whose value is a URL, written by a person, not a pasted link.
_SETTING = re.compile(r"[A-Za-z_][\w.\-]*(?:\s*=\s*|:\s+)<?https?://\S+$")
_CJK = re.compile(r"[" + HAN + r"]")


@text_cache
def is_machine_line(line: str) -> bool:
    """A line a program printed (or a bare URL), not something a person wrote."""
    text = line.strip().strip("`")
    if not text:
        return False
    if _bare_url(text) and not _SETTING.match(text):
        return True
    if _TIMESTAMP_START.match(text):
        return True  # a log line, whatever language its message is in
    if _CJK.search(text):
        return False  # otherwise people write Chinese; programs rarely do
    if _LEVEL.match(text) or ("level=" in text and _LEVEL_FIELD.search(text)) or _TRACE.match(text):
        return True
    if _PROMPT.match(text) or _HTTP_STATUS.match(text) or _TABLE_RULE.match(text):
        return True
    # Aligned columns ("NEXT   LEFT   LAST") with no sentence punctuation: a table a command printed.
    # (The cheap test first: columns need a run of spaces or a tab, and most sentences have neither.)
    aligned = ("  " in text or "\t" in text) and bool(_COLUMNS.search(text))
    return aligned and not re.search(r"[.!?,;:]\s|[.!?]$", text)


def _bare_url(text: str) -> bool:
    """A URL with (almost) nothing around it: a link pasted, not a sentence about it."""
    if "://" not in text or not _URL.search(text):
        return False
    rest = _URL.sub(" ", text)
    words = len(_LATIN_WORD.findall(rest)) + len(_CJK.findall(rest)) // 2  # two Han characters ≈ a word
    return words <= 1


@text_cache
def is_machine_text(text: str) -> bool:
    """Most non-empty lines of a message are machine lines (a paste without code fences)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return False
    machine = sum(1 for line in lines if is_machine_line(line))
    return machine * 3 >= len(lines) * 2
