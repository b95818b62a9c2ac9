"""The layers of README "How the code is laid out", checked from the code (ast), and the public API.

A component is a top-level module or package of ``savenow`` (``memory``, ``service``, ``cli``…).
Every import counts: at the top of a module, inside a function, under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import savenow

PACKAGE = Path(savenow.__file__).parent

ADAPTERS = {
    "cli",
    "telegram",
    "dropins",
    "__main__",
}  # parse input, render output; nothing below imports them
# The base, in order: each may import only the ones before it (messages and vocabulary import nothing).
BASE = ["messages", "vocabulary", "text", "errors", "storage"]
MEMORY_MUST_NOT_IMPORT = {"sessions", "extract", "service", "pending", "search", "objects", "compaction"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_nodes(tree: ast.AST, *, with_type_checking: bool) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, or only those that run (not under ``if TYPE_CHECKING:``)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if not with_type_checking and isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _imports(path: Path, *, with_type_checking: bool = True) -> set[str]:
    """Absolute names of every module ``path`` imports (relative imports resolved); with
    ``with_type_checking=False``, only the imports that run."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in _import_nodes(
        ast.parse(path.read_text(encoding="utf-8")), with_type_checking=with_type_checking
    ):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        else:
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names.add(target)
            if node.module is None or node.level:  # `from . import storage`: a module, maybe
                names.update(f"{target}.{alias.name}" for alias in node.names)
    return names


def _component(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "savenow":
        return None
    if len(parts) == 1:
        return "__init__"
    return parts[1] if (PACKAGE / parts[1]).is_dir() or (PACKAGE / f"{parts[1]}.py").is_file() else None


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _component_edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for path in _sources():
        own = _component(_module_name(path))
        assert own is not None
        for name in _imports(path):
            other = _component(name)
            if other is not None and other != own:
                edges[own].add(other)
    return edges


def _first_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_cycle_between_components() -> None:
    cycle = _first_cycle(_component_edges())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_cycle_between_modules() -> None:
    """Inside a component too, modules depend one way: a shared lower module, never an import
    tucked into a function to dodge a cycle. Typing-only imports and a package's own
    ``__init__`` (which re-exports its modules) do not count."""
    sources = {_module_name(path): path for path in _sources()}
    edges = {
        module: {
            name
            for name in _imports(path, with_type_checking=False)
            if name in sources and name != module and sources[name].name != "__init__.py"
        }
        for module, path in sources.items()
    }
    cycle = _first_cycle(edges)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_only_the_telegram_layer_imports_ptb() -> None:
    offenders = [
        str(path.relative_to(PACKAGE.parent))
        for path in _sources()
        if _component(_module_name(path)) != "telegram"
        and any(name == "telegram" or name.startswith("telegram.") for name in _imports(path))
    ]
    assert offenders == []


def test_nothing_below_the_adapters_imports_them() -> None:
    edges = _component_edges()
    offenders = {
        component: sorted(targets & ADAPTERS)
        for component, targets in edges.items()
        if component not in ADAPTERS and targets & ADAPTERS
    }
    assert offenders == {}


def test_memory_knows_nothing_of_sessions_extractors_or_features() -> None:
    assert _component_edges()["memory"] & MEMORY_MUST_NOT_IMPORT == set()


def test_the_base_imports_nothing_above_it() -> None:
    edges = _component_edges()
    for rank, component in enumerate(BASE):
        above = edges.get(component, set()) - set(BASE[:rank])
        assert above == set(), f"{component} imports {sorted(above)}"


def test_features_import_no_service() -> None:
    """search, objects and compaction are engines; the service (and the adapters) sit on them."""
    edges = _component_edges()
    for feature in ("search", "objects", "compaction", "sessions", "extract", "pending"):
        assert "service" not in edges.get(feature, set()), feature


PUBLIC_API = [
    "__version__",
    # the service and its results
    "SaveNowService",
    "SaveNowApi",
    "NotesService",
    "SearchService",
    "ObjectsService",
    "CompactionService",
    "PreviewResult",
    "ApplyResult",
    "CancelResult",
    "ListResult",
    "SessionSummary",
    "UndoResult",
    "Outcome",
    "Extraction",
    "ObjectsApplyOutcome",
    "Reply",
    "Button",
    "BotNotice",
    # who may do what
    "AccessPolicy",
    "Scope",
    # session stores
    "SessionInfo",
    "SessionStore",
    "ChatIndex",
    "UserMessageProbe",
    "WritableStore",
    # configuration, time, notes, extractors
    "Settings",
    "load_settings",
    "Clock",
    "Entry",
    "ChatMessage",
    "MemorySection",
    "ExtractionResult",
    "Extractor",
    "build_extractor",
    # errors
    "SaveNowError",
    "BadInputError",
    "FileMissingError",
    "ForbiddenTargetError",
    "ConfigError",
    "InvalidSessionKeyError",
    "SessionNotFoundError",
    "SessionResolutionError",
    "NoPendingError",
    "PendingExpiredError",
    "ScopeMismatchError",
    "AlreadyAppliedError",
    "UndoRefusedError",
    "AccessDeniedError",
    "ExtractorError",
    "SaveNowInternalError",
    "UnsupportedSessionStoreError",
    "SessionStoreBusyError",
    "NotTrustedError",
    "LockTimeoutError",
    "CompactionStoreError",
    "ObjectInputError",
    "ObjectNotFoundError",
    "ObjectForgottenError",
    "SearchPathRefusedError",
    "SearchDisabledError",
    "StorageError",
    "UnsafeTargetError",
    "LLMError",
    "LLMUnavailableError",
    "LLMRefusedError",
    "LLMAnswerError",
    "EmbeddingError",
]


def test_public_api_snapshot() -> None:
    assert list(savenow.__all__) == PUBLIC_API


def test_every_public_name_resolves() -> None:
    for name in savenow.__all__:
        assert getattr(savenow, name) is not None, name


def test_every_error_class_is_public() -> None:
    from savenow import errors

    classes = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.SaveNowError)
    }
    assert classes <= set(savenow.__all__)
