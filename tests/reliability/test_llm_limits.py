"""The LLM client's limits (issue 10 item 7, issue 11 item 1): a total deadline per request against a
trickling server, a response-size cap, defensive parsing, Retry-After oddities, embeddings batching."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

import pytest

from savenow.config import LLMSettings
from savenow.errors import ExtractorError, LLMAnswerError, LLMUnavailableError
from savenow.extract.llm import LLMExtractor
from savenow.llm import Endpoint, LLMClient, retry_after_seconds
from savenow.models import ChatMessage
from tests.fakes.fake_llm import FakeLLMServer, Reply, chat_reply, error_reply
from tests.reliability.support import assert_refused
from tests.service.conftest import Install, Runner


class SlowServer:
    """Answers every POST with one behaviour: ``trickle`` (a byte per 50 ms, forever) or ``flood``
    (1 MiB chunks, no Content-Length, ``flood_mib`` of them) or ``declared`` (claims 300 MB)."""

    def __init__(self, mode: str, flood_mib: int = 64) -> None:
        self.mode = mode
        self.flood_mib = flood_mib
        self.stop_event = threading.Event()
        self.bytes_sent = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                try:
                    server.answer(self)
                except OSError:
                    return  # the client went away: what we want

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        if self.mode == "declared":
            handler.send_header("Content-Length", str(300 * 1024 * 1024))
            handler.end_headers()
            handler.wfile.write(b"{")
            return
        if self.mode == "trickle":
            handler.send_header("Content-Length", "100000")
            handler.end_headers()
            while not self.stop_event.wait(0.05):
                handler.wfile.write(b" ")
                handler.wfile.flush()
                self.bytes_sent += 1
            return
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        chunk = b"x" * (1024 * 1024)
        for _ in range(self.flood_mib):
            if self.stop_event.is_set():
                return
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.bytes_sent += len(chunk)
        handler.wfile.write(b"0\r\n\r\n")

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_event.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def client(base_url: str, **overrides: Any) -> LLMClient:
    endpoint = Endpoint(base_url=base_url, model="m", api_key="sk-test-0000000000000000", **overrides)
    return LLMClient(endpoint, sleep=lambda _s: None)


def test_a_trickling_server_is_cut_at_the_total_deadline() -> None:
    with SlowServer("trickle") as server:
        started = time.monotonic()
        with pytest.raises(LLMUnavailableError, match=r"no answer within 0.5 s"):
            client(server.base_url, timeout_s=0.5, max_retries=0).chat([{"role": "user", "content": "hi"}])
        elapsed = time.monotonic() - started
    assert (
        elapsed < 10
    )  # a sanity bound (the trickle alone would take 5000 s); figures: benchmarks/robustness.py


@pytest.mark.parametrize("mode", ["flood", "declared"])
def test_an_oversized_answer_is_refused_as_it_streams(mode: str) -> None:
    with SlowServer(mode) as server, pytest.raises(LLMAnswerError, match="larger than 1 MiB"):
        client(server.base_url, max_response_bytes=1024 * 1024, max_retries=0).chat(
            [{"role": "user", "content": "hi"}]
        )
    assert server.bytes_sent < 64 * 1024 * 1024


@pytest.fixture
def fake() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


def extractor(server: FakeLLMServer) -> LLMExtractor:
    settings = LLMSettings(
        base_url=server.base_url, model="m", api_key="sk-test-0000000000000000", max_retries=0
    )
    return LLMExtractor(settings, sleep=lambda _s: None)


@pytest.mark.parametrize(
    "content",
    [
        "[" * 100_000,
        "[" * 900 + "x" * 5_000_000,
        '{"entries": ' + "[" * 5000 + "]" * 5000 + "}",
        "[{" * 300_000,
    ],
    ids=["brackets-100k", "brackets-900-then-5MB", "braces-5000", "mixed-600k"],
)
def test_pathological_answers_are_rejected_quickly(fake: FakeLLMServer, content: str) -> None:
    fake.script(chat_reply(content), chat_reply(content))
    with pytest.raises(ExtractorError, match="not usable twice"):
        extractor(fake).extract([ChatMessage("user", "hi")], [])


def test_an_answer_body_nested_too_deep_is_unusable_not_a_crash(fake: FakeLLMServer) -> None:
    fake.script(Reply(body=b"[" * 100_000), Reply(body=b"[" * 100_000))
    with pytest.raises(ExtractorError, match="not usable twice"):
        extractor(fake).extract([ChatMessage("user", "hi")], [])


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("nan", None),
        ("inf", None),
        ("-inf", None),
        ("-5", 0.0),
        ("soon", None),
        ("", None),
        ("7", 7.0),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),
        ("Mon, 99 Foo 99999 99:99:99 GMT", None),
    ],
)
def test_retry_after_values(header: str, expected: float | None) -> None:
    assert retry_after_seconds(header) == expected


def test_retry_after_nan_falls_back_to_backoff(fake: FakeLLMServer) -> None:
    delays: list[float] = []
    fake.script(error_reply(429, "slow down", headers={"Retry-After": "nan"}), chat_reply("hello"))
    llm = LLMClient(Endpoint(base_url=fake.base_url, model="m"), sleep=delays.append)
    assert llm.chat([{"role": "user", "content": "hi"}]) == "hello"
    assert delays == [1.0]


def test_a_huge_retry_after_is_reported_not_waited(fake: FakeLLMServer) -> None:
    delays: list[float] = []
    fake.script(error_reply(429, "quota", headers={"Retry-After": "1e300"}))
    llm = LLMClient(Endpoint(base_url=fake.base_url, model="m"), sleep=delays.append)
    with pytest.raises(LLMUnavailableError, match="asks to wait"):
        llm.chat([{"role": "user", "content": "hi"}])
    assert delays == []


def test_embeddings_are_batched_and_ordered(fake: FakeLLMServer) -> None:
    def rows(*vectors: list[float]) -> Reply:
        data = [
            {"object": "embedding", "index": i, "embedding": v} for i, v in reversed(list(enumerate(vectors)))
        ]
        return Reply(body={"object": "list", "data": data, "model": "e"})

    fake.script(rows([1.0, 0.0], [0.0, 1.0]), rows([0.5, 0.5]))
    llm = LLMClient(Endpoint(base_url=fake.base_url, model="embed-m"), sleep=lambda _s: None)
    vectors = llm.embed(["one", "第二 \ud83d", "three"], batch_size=2)
    assert vectors == [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
    assert [r.path for r in fake.requests] == ["/v1/embeddings", "/v1/embeddings"]
    assert fake.requests[0].json["input"] == ["one", "第二 \ufffd"]
    assert fake.requests[1].json == {"model": "embed-m", "input": ["three"]}


@pytest.mark.parametrize(
    "body",
    [
        {"data": []},
        {"data": [{"index": 0, "embedding": ["x"]}]},
        {"data": [{"index": 0, "embedding": [float("nan")]}]},
        "not json",
    ],
)
def test_bad_embeddings_are_a_typed_error(fake: FakeLLMServer, body: Any) -> None:
    fake.script(Reply(body=json.dumps(body) if isinstance(body, dict) else body))
    llm = LLMClient(Endpoint(base_url=fake.base_url, model="e", max_retries=0), sleep=lambda _s: None)
    with pytest.raises(LLMAnswerError):
        llm.embed(["one"])


def test_an_llm_failure_is_one_line_on_stderr_without_the_key(
    install: Install, savenow: Runner, fake: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "sk-live-" + "k" * 32
    monkeypatch.setenv("SAVENOW_EXTRACTOR", "llm")
    monkeypatch.setenv("SAVENOW_LLM__BASE_URL", fake.base_url)
    monkeypatch.setenv("SAVENOW_LLM__MODEL", "m")
    monkeypatch.setenv("SAVENOW_LLM__API_KEY", key)
    monkeypatch.setenv("SAVENOW_LLM__MAX_RETRIES", "1")
    fake.script(*(error_reply(503, f"down, key {key}") for _ in range(2)))
    status, out, err = savenow("preview", "--chat-id", "-1001234567890", "--thread-id", "7")
    assert_refused(status, err, contains="failed 2 times (HTTP 503)")
    assert key not in out + err


def test_an_obedient_model_cannot_write_the_key(
    install: Install, savenow: Runner, fake: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "sk-live-" + "k" * 32
    for name, value in (
        ("EXTRACTOR", "llm"),
        ("LLM__BASE_URL", fake.base_url),
        ("LLM__MODEL", "m"),
        ("LLM__API_KEY", key),
    ):
        monkeypatch.setenv(f"SAVENOW_{name}", value)
    entry = {"title": "The API key", "bullets": [f"the key is {key}", "and my github ghp_" + "a" * 36]}
    fake.script(chat_reply(json.dumps({"entries": [entry]})))
    status, out, err = savenow("auto", "--chat-id", "-1001234567890", "--thread-id", "7")
    assert status == 0, err
    assert "2 secret-looking string(s)" in out  # the CLI speaks English unless --lang zh
    files = "".join(
        p.read_text() for p in install.workspace.rglob("*") if p.is_file() and "locks" not in p.parts
    )
    assert key not in out + err + files and "ghp_" not in files
