"""A fake OpenAI-compatible ``/v1/embeddings`` server on 127.0.0.1 with deterministic vectors.

A text's vector counts its *concepts*: each word (or Han character pair) is looked up in
``concepts`` (so "flowers" and "桔梗" can share one axis, as a real multilingual model would
place them close), and anything else hashes to an axis of its own. Same text, same vector.

    with FakeEmbeddingsServer(concepts={"flowers": "flower", "桔梗": "flower"}) as server:
        ...
        assert server.embedding_calls == 1
        server.fail_with = 500      # every later request answers HTTP 500
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = ["FakeEmbeddingsServer"]

DIMS = 64
_WORDS = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]{2}")


def _axis(token: str) -> int:
    return int(hashlib.sha256(token.encode("utf-8")).hexdigest()[:8], 16) % DIMS


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class FakeEmbeddingsServer:
    def __init__(self, concepts: dict[str, str] | None = None) -> None:
        self.concepts = dict(concepts or {})
        self.requests: list[Recorded] = []
        self.fail_with: int | None = None
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        port = self._httpd.server_address[1]
        return f"http://127.0.0.1:{port}/v1"

    @property
    def embedding_calls(self) -> int:
        with self._lock:
            return len(self.requests)

    def inputs(self) -> list[str]:
        with self._lock:
            return [text for r in self.requests for text in r.body.get("input", [])]

    def vector(self, text: str) -> list[float]:
        values = [0.0] * DIMS
        for token in _WORDS.findall(text.casefold()):
            values[_axis(self.concepts.get(token, token))] += 1.0
        return values

    def start(self) -> Self:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append(Recorded(self.path, dict(self.headers.items()), body))
                if server.fail_with is not None or self.path != "/v1/embeddings":
                    self._send(server.fail_with or 404, {"error": {"message": "fake failure"}})
                    return
                data = [
                    {"object": "embedding", "index": i, "embedding": server.vector(text)}
                    for i, text in enumerate(body.get("input", []))
                ]
                self._send(200, {"object": "list", "data": data, "model": body.get("model")})

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                raw = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        return Handler
