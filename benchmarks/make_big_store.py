"""Generate (once, cached) an OpenClaw session store for the preview benchmark.

5,000 sessions in ``sessions.json`` (realistic entries with fields savenow ignores),
one 200 MB transcript (an old, busy session of the same group that also names the
target topic in ``lastThreadId``, so resolution has to look at it), and the target:
a forum topic with 180 user/assistant messages (the eval conversations, Chinese and English,
back to back) plus tool calls and results.

    python benchmarks/make_big_store.py [--dir DIR] [--force]

Prints the store folder. Default folder: ``$TMPDIR/savenow-bench-store``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path

SESSIONS = 5_000
BIG_BYTES = 200 * 1024 * 1024
TARGET_MESSAGES = 180
CHAT_ID = "-1003141592653"
TARGET_THREAD = "777"
TARGET_KEY = f"agent:main:telegram:group:{CHAT_ID}:topic:{TARGET_THREAD}"
BIG_KEY = f"agent:main:telegram:group:{CHAT_ID}"
BASE_MS = 1_795_900_000_000  # late November 2026
DONE_MARKER = ".complete"


def default_dir() -> Path:
    return Path(tempfile.gettempdir()) / "savenow-bench-store"


def _iso(ms: int) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _line(kind: str, n: int, ms: int, **body: object) -> str:
    return json.dumps(
        {"type": kind, "id": f"{n:08x}", "parentId": f"{n - 1:08x}", "timestamp": _iso(ms), **body}
    )


def _header(session_id: str, ms: int) -> str:
    return json.dumps(
        {"type": "session", "version": 3, "id": session_id, "timestamp": _iso(ms), "cwd": "/srv/ws"}
    )


def _user(n: int, ms: int, text: str) -> str:
    conversation = json.dumps({"chat_id": f"telegram:{CHAT_ID}", "topic_id": TARGET_THREAD})
    meta = (
        f"Conversation info (untrusted metadata):\n```json\n{conversation}\n```\n\n"
        'Sender (untrusted metadata):\n```json\n{"label": "Dana (4242)"}\n```\n\n'
    )
    content = meta + f"[Thu 2026-11-26 10:{n % 60:02d} GMT+8] {text}"
    return _line("message", n, ms, message={"role": "user", "content": content, "timestamp": ms})


def _assistant(n: int, ms: int, text: str, tool: bool = False) -> str:
    blocks: list[dict[str, object]] = [
        {"type": "thinking", "thinking": "considering " * 20},
        {"type": "text", "text": text},
    ]
    if tool:
        blocks.append(
            {
                "type": "toolCall",
                "id": f"call_{n}",
                "name": "exec",
                "arguments": {"command": "journalctl -u gw"},
            }
        )
    return _line(
        "message",
        n,
        ms,
        message={"role": "assistant", "content": blocks, "timestamp": ms, "stopReason": "stop"},
    )


def _tool_result(n: int, ms: int, size: int) -> str:
    body = ("Nov 26 10:00:00 host gateway[123]: request ok path=/v1/chat latency=12ms\n" * (size // 70 + 1))[
        :size
    ]
    return _line(
        "message",
        n,
        ms,
        message={
            "role": "toolResult",
            "toolCallId": f"call_{n}",
            "toolName": "exec",
            "content": [{"type": "text", "text": body}],
            "isError": False,
            "timestamp": ms,
        },
    )


def _entry(session_id: str, updated: int, chat: str, thread: str | None, chat_type: str) -> dict[str, object]:
    entry: dict[str, object] = {
        "sessionId": session_id,
        "updatedAt": updated,
        "sessionStartedAt": updated - 3_600_000,
        "chatType": chat_type,
        "channel": "telegram",
        "lastChannel": "telegram",
        "lastTo": f"telegram:{chat}",
        "deliveryContext": {"channel": "telegram", "to": f"telegram:{chat}", "accountId": "default"},
        "origin": {
            "provider": "telegram",
            "surface": "telegram",
            "chatType": chat_type,
            "to": f"telegram:{chat}",
        },
        "modelProvider": "anthropic",
        "model": "claude-sonnet-4-5",
        "inputTokens": 12345,
        "outputTokens": 2345,
        "totalTokens": 14690,
        "contextTokens": 200000,
        "compactionCount": 1,
        "systemSent": True,
        "skillsSnapshot": {
            "prompt": "<skills>" + "skill description " * 20 + "</skills>",
            "skills": [{"name": "savenow"}, {"name": "weather"}],
            "version": 3,
        },
    }
    if thread is not None:
        entry["deliveryContext"]["threadId"] = thread  # type: ignore[index]
        entry["origin"]["threadId"] = thread  # type: ignore[index]
        entry["lastThreadId"] = thread
    return entry


def build(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    store: dict[str, dict[str, object]] = {}
    for index in range(SESSIONS - 2):
        chat = f"-100{2000 + index % 400}"
        thread = str(index // 400 + 1)  # with index % 400 as the chat: every key distinct
        session_id = f"bench-{index:05d}"
        key = (
            f"agent:main:telegram:group:{chat}:topic:{thread}"
            if index % 5
            else f"agent:main:telegram:direct:{index}"
        )
        kind = "direct" if key.startswith("agent:main:telegram:direct") else "group"
        store[key] = _entry(
            session_id, BASE_MS - index * 60_000, chat, thread if kind == "group" else None, kind
        )
        name = f"{session_id}-topic-{thread}.jsonl" if kind == "group" else f"{session_id}.jsonl"
        ms = BASE_MS - index * 60_000
        (folder / name).write_text(
            "\n".join([_header(session_id, ms), _user(1, ms, f"hello {index}"), _assistant(2, ms, "hi")])
            + "\n"
        )
    _write_big(folder, store)
    _write_target(folder, store)
    (folder / "sessions.json").write_text(json.dumps(store, indent=2))
    (folder / DONE_MARKER).write_text("ok\n")


def _write_big(folder: Path, store: dict[str, dict[str, object]]) -> None:
    session_id = "bench-big"
    entry = _entry(session_id, BASE_MS - 86_400_000, CHAT_ID, None, "group")
    entry["lastThreadId"] = TARGET_THREAD  # mentions the target topic: resolution must consider it
    store[BIG_KEY] = entry
    with open(folder / f"{session_id}.jsonl", "w", encoding="utf-8") as handle:
        handle.write(_header(session_id, BASE_MS - 90 * 86_400_000) + "\n")
        written, n = 0, 1
        while written < BIG_BYTES:
            ms = BASE_MS - 90 * 86_400_000 + n * 1000
            chunk = (
                "\n".join(
                    [
                        _user(n, ms, f"run step {n}"),
                        _assistant(n + 1, ms, f"step {n} done", tool=True),
                        _tool_result(n + 2, ms, 20_000),
                    ]
                )
                + "\n"
            )
            handle.write(chunk)
            written += len(chunk)
            n += 3


EVAL_CASES = Path(__file__).resolve().parents[2] / "shared" / "eval" / "cases.jsonl"


def _target_messages() -> list[tuple[str, str]]:
    """180 realistic (role, text) messages: the eval conversations back to back (Chinese and English),
    or a synthetic stand-in when ``shared/eval`` is not beside the checkout."""
    if EVAL_CASES.is_file():
        pool = [
            (m["role"], m["text"])
            for line in EVAL_CASES.read_text(encoding="utf-8").splitlines()
            if line.strip()
            for m in json.loads(line)["transcript"]
        ]
        return pool[-TARGET_MESSAGES:]
    return [
        ("user", f"第 {i} 个问题：网关重启后 token 不匹配。以后部署前先检查 gateway.cmd。")
        if i % 2 == 0
        else ("assistant", f"Answer {i}: the root cause is a stale env variable; fixed.")
        for i in range(TARGET_MESSAGES)
    ]


def _write_target(folder: Path, store: dict[str, dict[str, object]]) -> None:
    session_id = "bench-target"
    store[TARGET_KEY] = _entry(session_id, BASE_MS + 60_000, CHAT_ID, TARGET_THREAD, "group")
    lines = [_header(session_id, BASE_MS - 7_200_000)]
    n = 1
    for turn, (role, text) in enumerate(_target_messages()):
        ms = BASE_MS - 7_200_000 + turn * 20_000
        if role == "user":
            lines.append(_user(n, ms, text))
        else:
            if turn % 6 == 1:  # some turns call a tool first, as real sessions do
                lines.append(_assistant(n, ms, "", tool=True))
                lines.append(_tool_result(n + 1, ms + 500, 4_000))
            lines.append(_assistant(n + 2, ms + 1000, text))
        n += 3
    (folder / f"{session_id}-topic-{TARGET_THREAD}.jsonl").write_text(
        "\n".join(lines) + "\n", encoding="utf-8"
    )


def ensure_store(folder: Path | None = None, *, force: bool = False) -> Path:
    folder = folder or default_dir()
    if force and folder.exists():
        shutil.rmtree(folder)
    if not (folder / DONE_MARKER).exists():
        if folder.exists():
            shutil.rmtree(folder)
        build(folder)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--force", action="store_true", help="rebuild even when cached")
    args = parser.parse_args()
    folder = ensure_store(args.dir, force=args.force)
    big = folder / "bench-big.jsonl"
    print(
        f"{folder}  ({len(os.listdir(folder)) - 2} transcripts, big transcript {big.stat().st_size / 2**20:.0f} MB)"
    )


if __name__ == "__main__":
    main()
