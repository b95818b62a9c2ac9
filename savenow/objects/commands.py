"""``savenow objects …``: parse flags, call :class:`ObjectsService`, print. No logic here."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..commands import scope_from_args, settings_from_args
from .model import parse_upsert
from .service import ObjectsService, read_objects_file, render_proposals


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
            print("`savenow objects apply` writes them; nothing is written until then.")
    return 0


def apply(args: argparse.Namespace) -> int:
    outcome = _service(args).apply(scope_from_args(args))
    if args.json:
        _print(
            {"results": [r.to_json() for r in outcome.results], "already_applied": outcome.already_applied}
        )
    elif outcome.already_applied:
        print("Already applied: nothing written again.")
    else:
        _print_results(outcome.results)
    return 0


def cancel(args: argparse.Namespace) -> int:
    _service(args).cancel(scope_from_args(args))
    print("Cancelled the pending memory-object preview. Nothing written.")
    return 0


def list_objects(args: argparse.Namespace) -> int:
    items = _service(args).list_objects()
    if args.json:
        _print({"objects": items})
        return 0
    if not items:
        print("No memory objects yet.")
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
        _print_results(results)
    return 0


def _print_results(results: list[Any]) -> None:
    for r in results:
        if r.op == "near_match":
            print(f"near_match: {r.label!r} looks like stored {r.candidate!r} ({r.id}); nothing written. "
                  f"Use the stored name (with the variant in \"aliases\") to update it, or --new for a new one.")  # fmt: skip
        elif r.op == "forgotten":
            print(f"forgotten: {r.label!r} was forgotten; nothing written (--remember brings it back).")
        else:
            print(f"{r.op}: {r.label} ({r.path})")


def forget(args: argparse.Namespace) -> int:
    result = _service(args).forget(args.ref, purge=args.purge)
    if args.json:
        _print(result.to_json())
    else:
        extra = (
            " and deleted the trash copy" if result.op == "purge" else "; `savenow objects undo` restores it"
        )
        print(f"Forgot {result.label} ({result.id}){extra}.")
    return 0


def undo(args: argparse.Namespace) -> int:
    done = _service(args).undo()
    if args.json:
        _print(done)
    else:
        print(f"Undid the last memory-object change ({done['undid']}): {', '.join(done['files'])}.")
    return 0


def maintain(args: argparse.Namespace) -> int:
    report = _service(args).maintain()
    if args.json:
        _print(report)
    else:
        print(f"Maintenance: {len(report['paused'])} paused, {len(report['archived'])} archived, "
              f"{len(report['vanished'])} with vanished sources; {report['changed']} file(s) changed.")  # fmt: skip
    return 0
