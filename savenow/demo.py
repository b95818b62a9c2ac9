"""`savenow demo`: the whole /savenow flow on a bundled sample, offline, with no configuration.

Copies the sample workspace and OpenClaw session store to a temporary folder, then for each
sample topic runs a preview, prints it, applies it, and finally prints the resulting memory file.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from .access import Scope
from .clock import Clock, load_timezone
from .config import Settings
from .service import SaveNowService


def _copy_sample(target: Path) -> dict[str, Any]:
    source = resources.files("savenow") / "demo_data"
    with resources.as_file(source) as folder:
        shutil.copytree(folder, target, dirs_exist_ok=True)
    return json.loads((target / "demo.json").read_text(encoding="utf-8"))


def run_demo(keep: str | None = None, out: TextIO | None = None) -> int:
    import sys

    out = out or sys.stdout
    with tempfile.TemporaryDirectory(prefix="savenow-demo-") as scratch:
        root = Path(keep).expanduser() if keep else Path(scratch)
        root.mkdir(parents=True, exist_ok=True)
        meta = _copy_sample(root)
        tz = load_timezone(str(meta["timezone"]))
        settings = Settings(
            workspace=root / "workspace",
            sessions_dir=root / "sessions",
            extractor="heuristic",
            timezone=str(meta["timezone"]),
        )
        clock = Clock(tz=tz, fixed=datetime.fromisoformat(str(meta["now"])))
        service = SaveNowService(settings, clock=clock)
        memory_path = None
        for topic in meta["topics"]:
            scope = Scope(chat_id=str(meta["chat_id"]), thread_id=str(topic["thread_id"]), surface="chat")
            print(f"$ /savenow        (in topic “{topic['title']}”)\n", file=out)
            preview = service.preview(scope)
            print(preview.markdown, file=out)
            if preview.pending_id:
                print("\n$ /savenow apply\n", file=out)
                result = service.apply(scope)
                print(
                    f"Applied: {len(result.added_titles)} added, {len(result.merged_titles)} merged, "
                    f"{len(result.skipped_titles)} skipped.\n",
                    file=out,
                )
            memory_path = preview.memory_path
        if memory_path is not None and memory_path.exists():
            print(f"$ cat {memory_path.relative_to(root)}\n", file=out)
            print(memory_path.read_text(encoding="utf-8"), file=out)
        if keep:
            _keep_with_next_steps(root, meta, out)
    return 0


def _keep_with_next_steps(root: Path, meta: dict[str, object], out: TextIO) -> None:
    """Write a config file for the kept sample and print commands that work there as printed."""
    import shlex

    config = root / "savenow.yaml"
    config.write_text(
        "# The kept savenow demo: its own workspace and sample sessions, the offline extractor.\n"
        f"workspace: {json.dumps(str((root / 'workspace').resolve()))}\n"
        f"sessions_dir: {json.dumps(str((root / 'sessions').resolve()))}\n"
        "extractor: heuristic\n"
        f"timezone: {json.dumps(str(meta['timezone']))}\n",
        encoding="utf-8",
    )
    topic = meta["topics"][0]  # type: ignore[index]
    scope = f"--chat-id={meta['chat_id']} --thread-id {topic['thread_id']}"
    print(f"The sample workspace is kept in {root}. Next, try:\n", file=out)
    print(f"  cd {shlex.quote(str(root))}", file=out)
    for command in (f"list {scope}", f"preview {scope}", f"apply {scope}", "undo"):
        print(f"  savenow {command} --config savenow.yaml", file=out)
