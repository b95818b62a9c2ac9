"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests.

It answers from a script (a queue of :class:`Reply`) and records every
request. An empty script answers HTTP 500 "no scripted reply", so a test that
sends more requests than it expects fails loudly rather than hanging.

    with FakeLLMServer() as server:
        server.script(chat_reply('{"entries": []}'))
        settings = LLMSettings(base_url=server.base_url, model="fake", api_key="sk-test")
        ...
        assert server.requests[0].json["model"] == "fake"
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = ["FakeLLMServer", "RecordedRequest", "Reply", "chat_reply", "drop", "error_reply", "hang"]

_HANG_LIMIT_S = 10.0  # a hanging reply is released at the latest when the server stops


@dataclass
class Reply:
    """One scripted answer."""

    status: int = 200
    body: Any = None  # dict/list → JSON; str → text; bytes as is
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False  # answer nothing until the server stops: the client times out
    drop: bool = False  # close the connection without an answer


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


def chat_reply(
    content: str | None, *, usage: dict[str, int] | None = None, finish_reason: str = "stop"
) -> Reply:
    """A chat.completion answer whose message content is ``content``."""
    body: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "fake-model",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}
        ],
    }
    if usage is not None:
        body["usage"] = usage
    return Reply(body=body)


def error_reply(status: int, message: str, *, headers: dict[str, str] | None = None) -> Reply:
    """An OpenAI-shaped error: ``{"error": {"message", "type", "code"}}``."""
    body = {"error": {"message": message, "type": "invalid_request_error", "code": None}}
    return Reply(status=status, body=body, headers=dict(headers or {}))


def hang() -> Reply:
    return Reply(hang=True)


def drop() -> Reply:
    return Reply(drop=True)


class FakeLLMServer:
    """A threaded HTTP server on 127.0.0.1:<free port>; ``base_url`` ends in ``/v1``."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    @property
    def pending_replies(self) -> int:
        with self._lock:
            return len(self._replies)

    def start(self) -> FakeLLMServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-llm", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._release.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _next_reply(self) -> Reply:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        return error_reply(500, "fake LLM: no scripted reply left")

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return

            def do_GET(self) -> None:
                self._answer(b"")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self._answer(self.rfile.read(length))

            def _answer(self, body: bytes) -> None:
                server._record(
                    RecordedRequest(
                        self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body
                    )
                )
                reply = server._next_reply()
                if reply.hang:
                    server._release.wait(_HANG_LIMIT_S)
                    self.close_connection = True
                    return
                if reply.drop:
                    self.close_connection = True
                    return
                payload, content_type = _encode(reply.body)
                self.send_response(reply.status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

        return Handler


def _encode(body: Any) -> tuple[bytes, str]:
    if body is None:
        return b"", "text/plain"
    if isinstance(body, bytes):
        return body, "application/octet-stream"
    if isinstance(body, str):
        return body.encode("utf-8"), "text/plain; charset=utf-8"
    return json.dumps(body, ensure_ascii=False).encode("utf-8"), "application/json"
