"""Attack the CLI and the LLM path; print probes tried / held per family, and peak memory + wall time
for the worst inputs (issue 10, "Measure").

    .venv/bin/python benchmarks/robustness.py [--big-mb 300] [--writers 40]

Every probe runs the real ``savenow`` command in its own process (peak RSS from ``wait4``).
A refusal holds when: exit 2, exactly one line on stderr, no traceback, every file's hash
unchanged (lock files excepted). A damaged-but-usable input holds when the command succeeds
and says what it skipped. Families: bad input, paths, faults (SIGKILL at every durability point
through ``SAVENOW_TEST_KILL_AT``, a file-size limit standing in for a full disk), concurrency
(N writers at once, then undo back to the start), LLM (local servers: trickling, flooding,
pathological answers, Retry-After oddities). The bot family is the issue-9 engineer's (the
per-topic queue lives in savenow/telegram); it is reported as not run here.
Goal: every probe held; no command above 512 MB or past its deadline.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.sessions.storegen import StoreBuilder, assistant, topic_key, user

NOW = "2026-11-28T10:00:00+08:00"
ORIGINAL = "# 2026-11-28\n\n## 09:00 - Old\n- old note\n"
ENTRIES = [{"title": "Nginx upload limit", "bullets": ["client_max_body_size 50m in files.conf"]}]
MEMORY = "memory/2026-11-28.md"
LIMIT_MB = 512
# Distinct subjects: the comparer rightly skips near-duplicate notes, which is not a lost write.
SERVICES = [
    "nginx",
    "redis",
    "postgres",
    "kafka",
    "grafana",
    "prometheus",
    "traefik",
    "caddy",
    "minio",
    "vault",
    "consul",
    "nomad",
    "etcd",
    "rabbitmq",
    "memcached",
    "haproxy",
    "envoy",
    "jenkins",
    "gitea",
    "drone",
    "sentry",
    "loki",
    "tempo",
    "jaeger",
    "clickhouse",
    "cassandra",
    "mongodb",
    "mysql",
    "sqlite",
    "duckdb",
    "elastic",
    "opensearch",
    "meilisearch",
    "typesense",
    "qdrant",
    "weaviate",
    "milvus",
    "chroma",
    "pgvector",
    "neo4j",
]


@dataclass
class Run:
    rc: int
    out: str
    err: str
    wall_s: float
    peak_mb: float


@dataclass
class Family:
    name: str
    tried: int = 0
    held: int = 0
    failures: list[str] = field(default_factory=list)

    def record(self, label: str, ok: bool, detail: str = "") -> None:
        self.tried += 1
        self.held += ok
        if not ok:
            self.failures.append(f"{label}: {detail}"[:300])


WORST: list[tuple[str, Run, float | None]] = []  # (what, run, deadline)


def run(
    argv: list[str],
    cwd: Path,
    env: dict[str, str] | None = None,
    *,
    timeout: float = 120,
    preexec: Callable[[], None] | None = None,
) -> Run:
    full = {**os.environ, "SAVENOW_NOW": NOW, "SAVENOW_TIMEZONE": "Asia/Shanghai", **(env or {})}
    started = time.monotonic()
    # Pipes, not files: a probe's file-size limit must not cut its own stderr.
    process = subprocess.Popen(
        [sys.executable, "-m", "savenow.cli", *argv],
        cwd=cwd,
        env=full,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=preexec,  # noqa: PLW1509 - only resource limits, set before exec
    )
    captured: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=lambda name=name, pipe=pipe: captured.__setitem__(name, pipe.read()))
        for name, pipe in (("out", process.stdout), ("err", process.stderr))
    ]
    for reader in readers:
        reader.start()
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    _, status, usage = os.wait4(process.pid, 0)
    timer.cancel()
    for reader in readers:
        reader.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    return Run(
        process.returncode,
        captured["out"].decode("utf-8", "replace"),
        captured["err"].decode("utf-8", "replace"),
        time.monotonic() - started,
        usage.ru_maxrss / 1024,
    )


def hashes(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
        and not p.is_symlink()
        and "locks" not in p.relative_to(root).parts
        and not p.name.startswith("probe-")
    }


def refusal_held(result: Run, before: dict[str, str], root: Path) -> tuple[bool, str]:
    lines = result.err.splitlines()
    if result.rc != 2:
        return False, f"exit {result.rc}: {result.err[-200:]}"
    if len(lines) != 1 or "Traceback" in result.err:
        return False, f"{len(lines)} stderr lines: {result.err[-200:]}"
    if hashes(root) != before:
        return False, "a file changed"
    return True, ""


def skill_workspace(base: Path, name: str) -> Path:
    ws = base / name
    (ws / "memory").mkdir(parents=True)
    (ws / "temp").mkdir()
    (ws / MEMORY).write_text(ORIGINAL)
    (ws / "temp" / "e.json").write_text(json.dumps(ENTRIES))
    return ws


def chat_install(base: Path, name: str, extra_lines: list[Any] | None = None) -> tuple[Path, dict[str, str]]:
    root = base / name
    (root / "ws" / "memory").mkdir(parents=True)
    store = StoreBuilder(root / "sessions")
    lines: list[Any] = [user("记住：网关端口是 18789，改端口后要重启 gateway"), assistant("好的，记住了。")]
    store.add(topic_key(7), lines + (extra_lines or []), chatType="group", lastThreadId=7)
    store.write()
    env = {
        "SAVENOW_WORKSPACE": str(root / "ws"),
        "SAVENOW_SESSIONS_DIR": str(root / "sessions"),
        "SAVENOW_EXTRACTOR": "heuristic",
        "HOME": str(root),
    }
    return root, env


def merge_argv(entries: str = "temp/e.json", memory: str = MEMORY) -> list[str]:
    return ["merge-daily-memory", "--entries-file", entries, "--memory-path", memory]


# -- families ---------------------------------------------------------------------------------------


def bad_input(base: Path) -> Family:
    family = Family("bad input")
    deep = "[" * 100_000
    cases: list[tuple[str, Callable[[Path], list[str]], dict[str, str]]] = [
        ("entries 100k deep", lambda ws: (ws / "temp" / "e.json").write_text(deep) and merge_argv(), {}),
        (
            "pending 100k deep",
            lambda ws: (
                (ws / "temp" / "p.json").write_text(deep) and ["apply", "--pending-file", "temp/p.json"]
            ),
            {},
        ),
        (
            "pending version abc",
            lambda ws: (
                (ws / "temp" / "p.json").write_text(
                    json.dumps(
                        {
                            "version": "abc",
                            "memoryPath": str(ws / MEMORY),
                            "entries": ENTRIES,
                            "generatedAt": NOW,
                            "expiresAt": "2026-11-28T11:00:00+08:00",
                        }
                    )
                )
                and ["apply", "--pending-file", "temp/p.json"]
            ),
            {},
        ),
        ("SAVENOW_NOW=9999-12-31T23:50", lambda ws: merge_argv(), {"SAVENOW_NOW": "9999-12-31T23:50"}),
        ("memory path not .md", lambda ws: merge_argv(memory="memory/x.txt"), {}),
        ("FIFO entries file", lambda ws: os.mkfifo(ws / "temp" / "f.json") or merge_argv("temp/f.json"), {}),
        (
            "FIFO memory file",
            lambda ws: (
                os.mkfifo(ws / "memory" / "2026-11-29.md") or merge_argv(memory="memory/2026-11-29.md")
            ),
            {},
        ),
        (
            "entries not UTF-8",
            lambda ws: (ws / "temp" / "e.json").write_bytes(b"\xff\xfe[") and merge_argv(),
            {},
        ),
        (
            "YAML error",
            lambda ws: (ws / "c.yaml").write_text("a: [b\n c: d\n") and ["list", "--config", "c.yaml"],
            {},
        ),
        ("missing workspace", lambda ws: ["list", "--workspace", str(ws / "nonexistent")], {}),
    ]
    for index, (label, setup, env) in enumerate(cases):
        ws = skill_workspace(base, f"bad{index}")
        argv = setup(ws)
        before = hashes(ws)
        result = run(argv, ws, env, timeout=30)
        ok, detail = refusal_held(result, before, ws)
        family.record(label, ok and not (ws / "nonexistent").exists(), detail)
        if label.startswith(("entries 100k", "pending 100k")):
            WORST.append((label, result, None))

    # damaged but usable: the command goes on and says what it skipped
    ws = skill_workspace(base, "surrogate")
    (ws / "temp" / "e.json").write_text('[{"title": "cut \\ud83d emoji", "bullets": ["b \\ude00"]}]')
    result = run(merge_argv(), ws)
    try:
        (ws / MEMORY).read_bytes().decode("utf-8")
        valid = True
    except UnicodeDecodeError:
        valid = False
    again = run(merge_argv(), ws)
    family.record("lone surrogate in an entry", result.rc == 0 and valid and again.rc == 0, result.err)

    key = "sk-proj-" + "Z9" * 16
    ws = skill_workspace(base, "secret")
    (ws / "temp" / "e.json").write_text(
        json.dumps([{"title": "k", "bullets": [f"key {key}", "AKIAIOSFODNN7EXAMPLE"]}])
    )
    result = run(merge_argv(), ws, {"SAVENOW_LLM__API_KEY": "configured-secret-123456"})
    leaked = any(
        key in p.read_text(errors="replace") for p in ws.rglob("*") if p.is_file() and p.name != "e.json"
    )
    family.record("key-shaped strings in entries", result.rc == 0 and not leaked and key not in result.out)

    for label, extra in (
        ("transcript line 5000 deep", ["[" * 5000 + "]" * 5000]),
        (
            "lone surrogate in a transcript line",
            ['{"type":"message","id":"s1","message":{"role":"user","content":"端口 \\ud83d 18789"}}'],
        ),
    ):
        root, env = chat_install(base, label.replace(" ", "-"), extra)
        result = run(["preview", topic_key(7)], root, env)
        family.record(label, result.rc == 0 and "Traceback" not in result.err, result.err[-200:])

    root, env = chat_install(base, "deep-sessions")
    (root / "sessions" / "sessions.json").write_text(deep)
    before = hashes(root)
    result = run(["preview", topic_key(7)], root, env)
    family.record("sessions.json 100k deep", *refusal_held(result, before, root))

    root, env = chat_install(base, "updated-1e20")
    data = json.loads((root / "sessions" / "sessions.json").read_text())
    data[topic_key(7)]["updatedAt"] = 1e20
    (root / "sessions" / "sessions.json").write_text(json.dumps(data))
    result = run(["list", "--chat-id", "-1001234567890", "--thread-id", "7"], root, env)
    family.record("updatedAt 1e20", result.rc == 0 and "Traceback" not in result.err, result.err[-200:])
    return family


def paths(base: Path) -> Family:
    family = Family("paths")
    outside = base / "outside.md"
    outside.write_text("# outside\n")

    def with_pending(ws: Path, target: str) -> list[str]:
        assert (
            run(
                [
                    "preview-diff",
                    "--entries-file",
                    "temp/e.json",
                    "--memory-path",
                    MEMORY,
                    "--pending-file",
                    "temp/p.json",
                ],
                ws,
            ).rc
            == 0
        )
        data = json.loads((ws / "temp" / "p.json").read_text())
        data["memoryPath"] = target
        (ws / "temp" / "p.json").write_text(json.dumps(data))
        return ["apply", "--pending-file", "temp/p.json"]

    def symlink(ws: Path, target: Path) -> list[str]:
        (ws / "memory" / "2026-11-29.md").symlink_to(target)
        return merge_argv(memory="memory/2026-11-29.md")

    cases: list[tuple[str, Callable[[Path], list[str]]]] = [
        ("cancel --pending-file <memory file>", lambda ws: ["cancel", "--pending-file", MEMORY]),
        ("cancel --pending-file <entries file>", lambda ws: ["cancel", "--pending-file", "temp/e.json"]),
        (
            "preview-diff --pending-file <memory file>",
            lambda ws: ["preview-diff", "--entries-file", "temp/e.json", "--pending-file", MEMORY],
        ),
        (
            "preview-diff --pending-file <entries file>",
            lambda ws: ["preview-diff", "--entries-file", "temp/e.json", "--pending-file", "temp/e.json"],
        ),
        (
            "apply → .ssh/authorized_keys",
            lambda ws: (
                (ws / ".ssh").mkdir()
                or (ws / ".ssh" / "authorized_keys").write_text("ssh-ed25519 AAAA\n")
                and with_pending(ws, str(ws / ".ssh" / "authorized_keys"))
            ),
        ),
        ("apply → outside the workspace", lambda ws: with_pending(ws, str(outside))),
        ("apply → MEMORY.md", lambda ws: with_pending(ws, str(ws / "MEMORY.md"))),
        (
            "symlink → MEMORY.md",
            lambda ws: (ws / "MEMORY.md").write_text("# long\n") and symlink(ws, ws / "MEMORY.md"),
        ),
        ("symlink → outside", lambda ws: symlink(ws, outside)),
        ("dangling symlink", lambda ws: symlink(ws, ws / "memory" / "gone.md")),
        ("0444 memory file", lambda ws: (ws / MEMORY).chmod(0o444) or merge_argv()),
        ("memory path outside", lambda ws: merge_argv(memory=str(outside))),
    ]
    for index, (label, setup) in enumerate(cases):
        ws = skill_workspace(base, f"path{index}")
        argv = setup(ws)
        before = hashes(ws)
        outside_before = outside.read_bytes()
        result = run(argv, ws)
        ok, detail = refusal_held(result, before, ws)
        family.record(label, ok and outside.read_bytes() == outside_before, detail)

    root, env = chat_install(base, "transcript-symlink")
    transcript = next((root / "sessions").glob("*.jsonl"))
    moved = base / "elsewhere.jsonl"
    shutil.move(transcript, moved)
    transcript.symlink_to(moved)
    before = hashes(root)
    result = run(["preview", topic_key(7)], root, env)
    family.record("transcript symlinked outside the store", *refusal_held(result, before, root))
    return family


def faults(base: Path) -> Family:
    family = Family("faults")
    write_b = [
        {"title": "Second", "bullets": ["beta 2"]},
        {"title": "m", "bullets": ["gamma 3"], "action": "merge", "merge_target_title": "Old"},
    ]

    def prepared(name: str) -> tuple[Path, str]:
        ws = skill_workspace(base, name)
        assert run(merge_argv(), ws).rc == 0
        (ws / "temp" / "b.json").write_text(json.dumps(write_b))
        return ws, (ws / MEMORY).read_text()

    ref, after_a = prepared("fault-ref")
    assert run(merge_argv("temp/b.json"), ref).rc == 0
    after_b = (ref / MEMORY).read_text()

    for command in ("write", "undo", "apply"):
        for kill_at in range(1, 12):
            ws, _ = prepared(f"kill-{command}-{kill_at}")
            if command == "undo":
                assert run(merge_argv("temp/b.json"), ws).rc == 0
                argv = ["undo"]
            elif command == "apply":
                assert (
                    run(
                        [
                            "preview-diff",
                            "--entries-file",
                            "temp/b.json",
                            "--memory-path",
                            MEMORY,
                            "--pending-file",
                            "temp/p.json",
                        ],
                        ws,
                    ).rc
                    == 0
                )
                argv = ["apply", "--pending-file", "temp/p.json"]
            else:
                argv = merge_argv("temp/b.json")
            killed = run(argv, ws, {"SAVENOW_TEST_KILL_AT": str(kill_at)})
            if killed.rc == 0:
                break
            text = (ws / MEMORY).read_text()
            ok = killed.rc == -signal.SIGKILL and text in (after_a, after_b)
            ok = ok and sorted(p.name for p in (ws / "memory").iterdir()) == ["2026-11-28.md"]
            if command == "apply":
                ok = ok and run(argv, ws).rc == 0 and (ws / MEMORY).read_text() == after_b
            else:
                landed = (text == after_b) if command == "write" else (text == after_a)
                ok = ok and run(["undo"], ws).rc == 0
                expected = (
                    (after_a if landed else ORIGINAL)
                    if command == "write"
                    else (ORIGINAL if landed else after_a)
                )
                ok = ok and (ws / MEMORY).read_text() == expected
            family.record(f"SIGKILL at point {kill_at} of {command}", ok, f"rc {killed.rc}")

    def file_size_limit() -> None:  # a full disk, as the kernel reports a file-size limit (EFBIG)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))

    for label, argv in (
        ("merge-daily-memory", merge_argv("temp/b.json")),
        (
            "preview-diff --pending-file",
            ["preview-diff", "--entries-file", "temp/b.json", "--pending-file", "temp/q.json"],
        ),
        ("undo", ["undo"]),
    ):
        ws, _ = prepared(f"full-{label.split()[0]}")
        memory_before = (ws / MEMORY).read_bytes()  # larger than the limit: any rewrite of it fails
        result = run(argv, ws, preexec=file_size_limit)
        lines = result.err.splitlines()
        ok = result.rc == 2 and len(lines) == 1 and "Traceback" not in result.err
        ok = ok and (ws / MEMORY).read_bytes() == memory_before
        detail = result.err[-200:]
        family.record(f"disk full ({label})", ok, detail)
    for label in ("preview", "auto"):
        root, env = chat_install(base, f"full-chat-{label}")
        (root / "ws" / MEMORY).write_text(ORIGINAL + "x" * 100)
        (root / "ws" / ".savenow").mkdir()
        (root / "ws" / ".savenow" / "journal.jsonl").write_text("\n" * 100)  # appends land past the limit
        memory_before = (root / "ws" / MEMORY).read_bytes()
        result = run([label, topic_key(7), "--date", "2026-11-28"], root, env, preexec=file_size_limit)
        lines = result.err.splitlines()
        ok = result.rc == 2 and len(lines) == 1 and "Traceback" not in result.err
        ok = ok and (root / "ws" / MEMORY).read_bytes() == memory_before
        family.record(f"disk full (chat {label})", ok, result.err[-200:])
    ws, _ = prepared("full-apply")
    assert (
        run(
            [
                "preview-diff",
                "--entries-file",
                "temp/b.json",
                "--memory-path",
                MEMORY,
                "--pending-file",
                "temp/p.json",
            ],
            ws,
        ).rc
        == 0
    )
    memory_before = (ws / MEMORY).read_bytes()
    result = run(["apply", "--pending-file", "temp/p.json"], ws, preexec=file_size_limit)
    ok = result.rc == 2 and len(result.err.splitlines()) == 1 and (ws / MEMORY).read_bytes() == memory_before
    family.record("disk full (apply --pending-file)", ok, result.err[-200:])
    return family


def subject(number: int) -> str:
    return f"{SERVICES[number % len(SERVICES)]}{number // len(SERVICES) or ''}"


def concurrency(base: Path, writers: int) -> Family:
    family = Family("concurrency")
    ws = skill_workspace(base, "concurrent")
    for number in range(writers):
        word = subject(number)
        entries = [
            {"title": f"{word} 部署笔记", "bullets": [f"{word} 的数据目录在 /srv/{word}-{number}"]},
            {
                "title": "m",
                "bullets": [f"merged bullet for {word}"],
                "action": "merge",
                "merge_target_title": "Old",
            },
        ]
        (ws / "temp" / f"c{number}.json").write_text(json.dumps(entries, ensure_ascii=False))
    env = {**os.environ, "SAVENOW_NOW": NOW, "SAVENOW_TIMEZONE": "Asia/Shanghai"}
    started = time.monotonic()
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "savenow.cli", *merge_argv(f"temp/c{n}.json")],
            cwd=ws,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for n in range(writers)
    ]
    codes = [p.wait(timeout=600) for p in processes]
    wall = time.monotonic() - started
    text = (ws / MEMORY).read_text()
    for number in range(writers):
        family.record(
            f"writer {number}",
            codes[number] == 0
            and text.count(
                f"/srv/{SERVICES[number % len(SERVICES)]}{number // len(SERVICES) or ''}-{number}\n"
            )
            == 1
            and text.count(
                f"- merged bullet for {SERVICES[number % len(SERVICES)]}{number // len(SERVICES) or ''}\n"
            )
            == 1,
            f"rc {codes[number]}",
        )
    undone = all(run(["undo"], ws).rc == 0 for _ in range(writers))
    family.record(
        f"undo {writers} writes back to the start", undone and (ws / MEMORY).read_text() == ORIGINAL
    )
    print(f"  ({writers} concurrent writers: {wall:.1f} s wall)")
    return family


class LLMServer:
    """One behaviour per instance: 'trickle', 'flood' (300 MB), or a fixed chat answer."""

    def __init__(
        self,
        mode: str,
        content: str = "",
        big_mb: int = 300,
        headers: dict[str, str] | None = None,
        status: int = 200,
    ) -> None:
        self.stop = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    server.answer(self, mode, content, big_mb, headers or {}, status)
                except OSError:
                    return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @staticmethod
    def answer(
        h: BaseHTTPRequestHandler, mode: str, content: str, big_mb: int, headers: dict[str, str], status: int
    ) -> None:
        h.send_response(status)
        for name, value in headers.items():
            h.send_header(name, value)
        if mode == "trickle":
            h.send_header("Content-Length", "1000000")
            h.end_headers()
            for _ in range(1_000_000):
                h.wfile.write(b" ")
                h.wfile.flush()
                time.sleep(0.5)
            return
        if mode == "flood":
            h.send_header("Transfer-Encoding", "chunked")
            h.end_headers()
            prefix = b'{"choices":[{"message":{"content":"'
            h.wfile.write(b"%x\r\n%s\r\n" % (len(prefix), prefix))
            chunk = b"x" * (1 << 20)
            for _ in range(big_mb):
                h.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            h.wfile.write(b"0\r\n\r\n")
            return
        body = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def llm(base: Path, big_mb: int) -> Family:
    family = Family("LLM")
    timeout = 3.0
    cases = [
        ("trickling server (1 byte / 0.5 s)", {"mode": "trickle"}, True),
        (f"{big_mb} MB answer", {"mode": "flood", "big_mb": big_mb}, True),
        ("'[' x 100k answer", {"mode": "answer", "content": "[" * 100_000}, True),
        ("'[' x 900 then 5 MB answer", {"mode": "answer", "content": "[" * 900 + "x" * 5_000_000}, True),
        (
            "Retry-After: nan (then 503s)",
            {"mode": "answer", "status": 503, "headers": {"Retry-After": "nan"}},
            False,
        ),
        ("Retry-After: 1e300", {"mode": "answer", "status": 429, "headers": {"Retry-After": "1e300"}}, False),
        (
            "obedient model writes the key",
            {
                "mode": "answer",
                "content": json.dumps(
                    {"entries": [{"title": "key", "bullets": ["the key is sk-live-" + "q" * 32]}]}
                ),
            },
            False,
        ),
    ]
    for index, (label, spec, worst) in enumerate(cases):
        server = LLMServer(**spec)  # type: ignore[arg-type]
        root, env = chat_install(base, f"llm{index}")
        env.update(
            {
                "SAVENOW_EXTRACTOR": "llm",
                "SAVENOW_LLM__BASE_URL": server.url,
                "SAVENOW_LLM__MODEL": "m",
                "SAVENOW_LLM__API_KEY": "sk-live-" + "q" * 32,
                "SAVENOW_LLM__TIMEOUT_S": str(timeout),
                "SAVENOW_LLM__MAX_RETRIES": "1",
            }
        )
        command = ["auto", topic_key(7)] if "obedient" in label else ["preview", topic_key(7)]
        before = hashes(root)
        result = run(command, root, env, timeout=120)
        server.close()
        if "obedient" in label:
            files = "".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())
            ok = result.rc == 0 and "sk-live-" not in files + result.out + result.err
            family.record(label, ok, result.err[-200:])
        else:
            ok, detail = refusal_held(result, before, root)
            deadline = 2 * (timeout + 1) + 2  # two attempts, a 1 s backoff, process start
            ok = ok and result.wall_s <= deadline and result.peak_mb <= LIMIT_MB
            family.record(label, ok, detail or f"{result.wall_s:.1f} s, {result.peak_mb:.0f} MB")
            if worst:
                WORST.append((label, result, deadline))
    return family


def big_transcript(base: Path, big_mb: int) -> None:
    root, env = chat_install(base, "junk-tail")
    transcript = next((root / "sessions").glob("*.jsonl"))
    block = ("junk line that is not JSON at all, repeated to fill the tail " * 16 + "\n").encode() * 1024
    with transcript.open("ab") as handle:
        for _ in range(big_mb * (1 << 20) // len(block)):
            handle.write(block)
    result = run(["preview", topic_key(7)], root, env, timeout=300)
    WORST.append((f"{big_mb} MB junk after a conversation (preview)", result, 30.0))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--big-mb", type=int, default=300)
    parser.add_argument("--writers", type=int, default=40)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="savenow-robustness-"))
    try:
        families = [
            bad_input(base),
            paths(base),
            faults(base),
            concurrency(base, args.writers),
            llm(base, args.big_mb),
        ]
        big_transcript(base, args.big_mb)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{'family':<14} {'tried':>6} {'held':>6}")
    for family in families:
        print(f"{family.name:<14} {family.tried:>6} {family.held:>6}")
        for failure in family.failures:
            print(f"    NOT HELD  {failure}")
    print(f"{'bot':<14} {'-':>6} {'-':>6}   (not run here: the per-topic queue is the issue-9 engineer's)")
    total_tried = sum(f.tried for f in families)
    total_held = sum(f.held for f in families)
    print(f"{'all':<14} {total_tried:>6} {total_held:>6}")
    print("\nworst inputs (one process each; peak RSS from wait4):")
    for what, result, deadline in WORST:
        bound = f" (deadline {deadline:.0f} s)" if deadline else ""
        print(
            f"  {what:<46} exit {result.rc:>3}  {result.wall_s:6.2f} s{bound}  peak {result.peak_mb:6.1f} MB"
        )
    over = [w for w in WORST if w[1].peak_mb > LIMIT_MB or (w[2] is not None and w[1].wall_s > w[2])]
    print(
        f"\ngoal: every probe held, no command above {LIMIT_MB} MB or past its deadline: "
        f"{'MET' if total_held == total_tried and not over else 'NOT MET'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
