"""Settings a tool call changed, read from the command line (DESIGN §13: decisions with their final values).

A person resuming the work needs the value a command *set*, and often the chat never says it in
prose: ``sed -i 's/^concurrent = 8/concurrent = 6/' config.toml``, ``yarn add pkg@4.0.0-beta.2``,
``FOO=1 make``. Each change is ``(key, text)``: the key says what was set (a later change of the same
key replaces the earlier one), the text is the new setting as written.
"""

from __future__ import annotations

import re

# s/old/new/ with any one-character delimiter; \-escapes inside.
_SED_SUBSTITUTION = re.compile(
    r"(?<![\w-])s(?P<d>[/|#,@:!])(?P<old>(?:\\.|(?!(?P=d)).)*)(?P=d)(?P<new>(?:\\.|(?!(?P=d)).)*)(?P=d)"
)
_INSTALL = re.compile(
    r"\b(?:(?:yarn|pnpm|bun)\s+add|npm\s+(?:i|install|add)|pip3?\s+install|uv\s+(?:add|pip\s+install)"
    r"|poetry\s+add|cargo\s+add|go\s+get|gem\s+install|composer\s+require)\s+(?P<args>[^;&|\n]+)"
)
_PINNED = re.compile(r"^(?P<key>@?[\w./-]+?)(?:@|==|>=|~=)v?\d[\w.+-]*$")
_ASSIGNMENT = re.compile(r"(?:^|(?<=[\s;&|(]))(?P<key>[A-Z][A-Z0-9_]{2,})=(?P<value>[^\s;&|'\"`*]+)")
_SETTING = re.compile(r"^\s*(?P<key>[\w.\[\]-]{2,60}?)\s*(?:=|:)\s*\S")
# What else a sed replacement can set: an option with its value ("s/-w 3/-w 5/"), or a keyword argument
# it adds to a call ("s/read_csv(f)/read_csv(f, encoding='gbk')/").
_OPTION_VALUE = re.compile(r"^(?P<key>--?[A-Za-z][\w-]*)(?:=| )[\w.:/@+-]+$")
_KEYWORD_ARGUMENT = re.compile(r"(?<![\w.])(?P<key>[a-z_][a-z0-9_]{2,30})=(?P<q>['\"])[^'\"\s]{1,30}(?P=q)")
_UNESCAPE = re.compile(r"\\(.)")
_BACKREFERENCE = re.compile(r"\\\d")
MAX_CHANGE_CHARS = 80


def settings_changed(command: str) -> list[tuple[str, str]]:
    """The settings a shell command line sets, in order: sed replacements that assign a key, set an
    option's value or add a keyword argument, pinned package versions, and ``NAME=value`` environment
    assignments."""
    changes: list[tuple[str, str]] = []
    rest = command
    for match in _SED_SUBSTITUTION.finditer(command):
        new = _UNESCAPE.sub(r"\1", match.group("new")).strip()
        setting = _SETTING.match(new)
        plain = len(new) <= MAX_CHANGE_CHARS and "&" not in new and not _BACKREFERENCE.search(new)
        option = _OPTION_VALUE.match(new)
        if setting and plain:
            changes.append((setting.group("key").casefold(), new))
        elif option and plain:
            changes.append((option.group("key"), new))
        else:
            old = _UNESCAPE.sub(r"\1", match.group("old"))
            changes += [
                (k.group("key"), k.group(0)) for k in _KEYWORD_ARGUMENT.finditer(new) if k.group(0) not in old
            ]
        rest = rest.replace(match.group(0), " ")
    for match in _INSTALL.finditer(rest):
        for arg in match.group("args").split():
            pinned = _PINNED.match(arg.strip("'\""))
            if pinned and not arg.startswith("-"):
                changes.append((pinned.group("key").casefold(), arg.strip("'\"")))
    for match in _ASSIGNMENT.finditer(rest):
        text = match.group(0)
        if len(text) <= MAX_CHANGE_CHARS:
            changes.append((match.group("key").casefold(), text))
    return changes


def setting_key(text: str) -> str:
    """The key of a setting as rendered (``concurrent = 6`` → ``concurrent``; ``pkg@1.2`` → ``pkg``;
    ``-w 5`` → ``-w``)."""
    pinned = _PINNED.match(text)
    if pinned:
        return pinned.group("key").casefold()
    option = _OPTION_VALUE.match(text)
    if option:
        return option.group("key")  # -w 5 → -w (an option's case counts: -w is not -W)
    setting = _SETTING.match(text)
    return setting.group("key").casefold() if setting else text.casefold()


# A line of a config file or a module constant that assigns a short literal: "DELIVERY_FEE = 6  # 配送费",
# "port: 6433", "export TZ=Asia/Shanghai". Calls, collections and expressions are code, not settings.
_CONFIG_LINE = re.compile(
    r"^\s*(?:export\s+)?(?P<key>[A-Za-z_][\w.-]{1,60})\s*(?P<op>=|:)\s*(?P<value>[\w.:/@+'\"-]{1,40})\s*(?:#.*)?$"
)
MAX_REWRITTEN = 6


def _assignments(text: str) -> dict[str, tuple[str, str]]:
    """key → (value, the assignment as written) for keys assigned exactly once in ``text``."""
    found: dict[str, tuple[str, str]] = {}
    twice: set[str] = set()
    for raw in text.splitlines():
        match = _CONFIG_LINE.match(raw)
        if not match:
            continue
        key = match.group("key").casefold()
        if key in found:
            twice.add(key)
        value = match.group("value").strip("'\"")
        found[key] = (
            value,
            f"{match.group('key')} {match.group('op')} {match.group('value')}".replace(" :", ":"),
        )
    return {key: item for key, item in found.items() if key not in twice}


def settings_rewritten(before: str, after: str) -> list[tuple[str, str]]:
    """The settings a file rewrite changed (the chat showed the file, then wrote it whole):
    keys assigned in both versions with another value, as ``(key, new assignment)``.
    ``DELIVERY_FEE = 8`` read, ``DELIVERY_FEE = 6`` written → ``("delivery_fee", "DELIVERY_FEE = 6")``."""
    old, new = _assignments(before), _assignments(after)
    changed = [(key, text) for key, (value, text) in new.items() if key in old and old[key][0] != value]
    return changed if len(changed) <= MAX_REWRITTEN else []  # a rewrite of everything is no setting change
