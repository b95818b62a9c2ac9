"""One catalog of user-facing text (issue 11 item 6).

Every ``SaveNowError`` built in ``savenow/`` carries a catalog :class:`~savenow.messages.Text`
(never its own inline en/zh strings), and every catalog entry exists in English and Chinese with
the same ``{placeholders}``. The scan reads the code (``ast``), so it needs nothing to run.
"""

from __future__ import annotations

import ast
import string
from collections import Counter
from pathlib import Path

import savenow.errors
from savenow.errors import SaveNowError
from savenow.messages import CATALOG, LANGUAGES, Text, text

PACKAGE = Path(savenow.errors.__file__).resolve().parent
ROOT = PACKAGE.parent

# Files that still build errors from inline strings, with how many sites and why. Counts are
# ceilings: moving a site into the catalog never breaks this test, adding one does.
ALLOWED_INLINE: dict[str, tuple[int, str]] = {}


def _modules() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _error_classes(modules: list[tuple[str, ast.Module]]) -> set[str]:
    """The names of SaveNowError and every subclass defined anywhere in the package."""
    known = {
        cls.__name__
        for cls in vars(savenow.errors).values()
        if isinstance(cls, type) and issubclass(cls, SaveNowError)
    }
    classes = [node for _, tree in modules for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for node in classes:
            if node.name not in known and any(_name(base) in known for base in node.bases):
                known.add(node.name)
                grew = True
    return known


def _is_text_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) == "Text"


def _inline_strings(call: ast.Call) -> bool:
    """True when the error is built from its own words: two messages, or a string literal."""
    if len(call.args) > 1:
        return True
    return any(_holds_literal(arg) for arg in [*call.args, *(keyword.value for keyword in call.keywords)])


def _holds_literal(node: ast.AST) -> bool:
    """A string literal anywhere in ``node``, except inside a ``Text(…)`` (its key and values)."""
    if _is_text_call(node):
        return False
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return True
    return any(_holds_literal(child) for child in ast.iter_child_nodes(node))


def _error_calls(tree: ast.Module, errors: set[str]) -> list[ast.Call]:
    """Calls that build an error: ``SomeError(…)``, and ``cls(…)`` inside an error class."""
    calls: list[ast.Call] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in errors:
            calls.append(node)
        if isinstance(node, ast.ClassDef) and node.name in errors:
            calls.extend(
                inner
                for inner in ast.walk(node)
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "cls"
            )
    return calls


def test_every_error_is_built_from_a_catalog_text() -> None:
    modules = _modules()
    errors = _error_classes(modules)
    found: Counter[str] = Counter()
    where: list[str] = []
    for path, tree in modules:
        for call in _error_calls(tree, errors):
            if _inline_strings(call):
                found[path] += 1
                where.append(f"{path}:{call.lineno}: {ast.unparse(call)[:100]}")
    over = {path: count for path, count in found.items() if count > ALLOWED_INLINE.get(path, (0, ""))[0]}
    assert not over, "errors built from inline strings (use Text(key, …)):\n" + "\n".join(
        line for line in where if line.split(":")[0] in over
    )


def test_every_catalog_key_used_in_the_code_exists() -> None:
    missing = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and _name(node.func) in {"Text", "text"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and "." in node.args[0].value
                and node.args[0].value not in CATALOG
            ):
                missing.append(f"{path}:{node.lineno}: {node.args[0].value}")
    assert not missing, missing


def _placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def test_every_entry_has_both_languages_with_the_same_placeholders() -> None:
    problems = []
    for key, entry in CATALOG.items():
        if set(entry) != set(LANGUAGES) or not all(
            isinstance(entry[lang], str) and entry[lang] for lang in LANGUAGES
        ):
            problems.append(f"{key}: languages {sorted(entry)}")
            continue
        if _placeholders(entry["en"]) != _placeholders(entry["zh"]):
            problems.append(f"{key}: en {_placeholders(entry['en'])} zh {_placeholders(entry['zh'])}")
    assert not problems, problems


def test_a_text_renders_nested_texts_in_the_same_language() -> None:
    detail = Text("pending.malformed.memory_path_missing")
    error = savenow.errors.BadInputError(Text("pending.malformed", detail=detail))
    assert error.message("en") == "pending preview is malformed: memoryPath is missing"
    assert error.message("zh") == text(
        "pending.malformed", "zh", detail=text("pending.malformed.memory_path_missing", "zh")
    )
    assert error.key == "pending.malformed"


def test_no_key_is_written_twice() -> None:
    """A repeated key in the dict literal silently keeps the last one; merges make that easy."""
    tree = ast.parse((PACKAGE / "messages.py").read_text(encoding="utf-8"))
    keys = [
        node.value
        for assign in ast.walk(tree)
        if isinstance(assign, ast.AnnAssign)
        and _name(assign.target) == "CATALOG"
        and isinstance(assign.value, ast.Dict)
        for node in assign.value.keys
        if isinstance(node, ast.Constant)
    ]
    assert len(keys) == len(CATALOG)
    assert [key for key, count in Counter(keys).items() if count > 1] == []


# Views on the catalog that add a prefix to a short name: text("applied", lang) → objects.applied.
_VIEWS = {
    "savenow/objects/": "objects.",
    "savenow/telegram/": "bot.",
    "savenow/search/reply.py": "search.recall.",
}


def test_every_short_name_of_a_view_exists() -> None:
    missing = []
    for path, tree in _modules():
        prefix = next((prefix for where, prefix in _VIEWS.items() if path.startswith(where)), None)
        if prefix is None:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and _name(node.func) in {"text", "_t"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and "." not in node.args[0].value
                and prefix + node.args[0].value not in CATALOG
            ):
                missing.append(f"{path}:{node.lineno}: {prefix}{node.args[0].value}")
    assert not missing, missing


def test_keys_built_from_a_name_exist() -> None:
    """Keys put together at run time (storage verbs) are all in the catalog."""
    from typing import get_args

    from savenow.storage.files import Action

    assert all(f"storage.verb.{action}" in CATALOG for action in get_args(Action))
