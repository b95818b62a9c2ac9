"""features.py works through the handlers' public surface: it touches no private name of another object."""

from __future__ import annotations

import ast
from pathlib import Path

import savenow.telegram.features as features


def test_features_touches_no_private_member_but_its_own() -> None:
    tree = ast.parse(Path(features.__file__).read_text(encoding="utf-8"))
    offenders = sorted(
        f"{ast.unparse(node.value)}.{node.attr} (line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    )
    imported = sorted(
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("_")
    )
    assert offenders == [] and imported == []
