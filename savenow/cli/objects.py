"""``savenow objects …``: parse flags, call :class:`ObjectsService`, print. No logic here."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..messages import ListOf, text
from ..objects.model import parse_upsert
from ..service.objects import ObjectsService, read_objects_file, render_proposals
from .args import lang_of, scope_from_args, settings_from_args


def _service(args: argparse.Namespace) -> ObjectsService:
    return ObjectsService(settings_from_args(args))


def _print(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def extract(args: argparse.Namespace) -> int:
    result = _service(args).extract(scope_from_args(args), args.session_key)
    if args.json:
        _print(result.to_json())
    else:
        print(render_proposals(result.plan))
        if result.pending_id:
            print(text("cli.objects_apply_hint", lang_of(args)))
    return 0


def apply(args: argparse.Namespace) -> int:
    outcome = _service(args).apply(scope_from_args(args))
    if args.json:
        _print(
            {"results": [r.to_json() for r in outcome.results], "already_applied": outcome.already_applied}
        )
    elif outcome.already_applied:
        print(text("cli.objects_already_applied", lang_of(args)))
    else:
        _print_results(outcome.results, lang_of(args))
    return 0


def cancel(args: argparse.Namespace) -> int:
    _service(args).cancel(scope_from_args(args))
    print(text("cli.objects_cancelled", lang_of(args)))
    return 0


def list_objects(args: argparse.Namespace) -> int:
    items = _service(args).list_objects()
    if args.json:
        _print({"objects": items})
        return 0
    if not items:
        print(text("cli.objects_none", lang_of(args)))
    for item in items:
        label = item.get("name") or item.get("title") or f"{item.get('category')}/{item.get('key')}"
        status = f" [{item['status']}]" if item["type"] == "topic" else ""
        print(f"{item['id']}  {item['type']:<12} {label}{status}  ({item['path']})")
    return 0


def show(args: argparse.Namespace) -> int:
    data = _service(args).show(args.ref)
    if args.json:
        _print(data)
    else:
        path = Path(settings_from_args(args).workspace) / data["path"]
        print(path.read_text(encoding="utf-8"), end="")
    return 0


def upsert(args: argparse.Namespace) -> int:
    objects = parse_upsert(read_objects_file(Path(args.json_file)))  # all validated before any write
    results = _service(args).upsert(objects, remember=args.remember, allow_near=args.new)
    return _report(args, results)


def correct(args: argparse.Namespace) -> int:
    objects = parse_upsert(read_objects_file(Path(args.json_file)))
    return _report(args, _service(args).correct(objects))


def _report(args: argparse.Namespace, results: list[Any]) -> int:
    if args.json:
        _print({"results": [r.to_json() for r in results]})
    else:
        _print_results(results, lang_of(args))
    return 0


def _print_results(results: list[Any], lang: str) -> None:
    for r in results:
        if r.op == "near_match":
            print(text("cli.objects_near_match", lang, label=r.label, candidate=r.candidate, id=r.id))
        elif r.op == "forgotten":
            print(text("cli.objects_forgotten", lang, label=r.label))
        else:
            print(f"{r.op}: {r.label} ({r.path})")


def forget(args: argparse.Namespace) -> int:
    result = _service(args).forget(args.ref, purge=args.purge)
    if args.json:
        _print(result.to_json())
    else:
        key = "cli.objects_forgot_purged" if result.op == "purge" else "cli.objects_forgot"
        print(text(key, lang_of(args), label=result.label, id=result.id))
    return 0


def undo(args: argparse.Namespace) -> int:
    done = _service(args).undo()
    if args.json:
        _print(done)
    else:
        print(text("cli.objects_undid", lang_of(args), undid=done["undid"], files=ListOf(done["files"])))
    return 0


def maintain(args: argparse.Namespace) -> int:
    report = _service(args).maintain()
    if args.json:
        _print(report)
    else:
        print(
            text(
                "cli.objects_maintained",
                lang_of(args),
                paused=len(report["paused"]),
                archived=len(report["archived"]),
                vanished=len(report["vanished"]),
                changed=report["changed"],
            )
        )
    return 0
