"""A fake Telegram Bot API server on 127.0.0.1, for the real PTB ``Application`` to poll.

Standard library only (asyncio streams, HTTP/1.1 keep-alive) in its own thread
with its own event loop, so the bot under test shares nothing with it but the
socket. PTB appends ``/bot<token>/<method>`` to ``base_url``; requests are
form-encoded (multipart when a file is sent) and errors are told by HTTP status,
as Telegram does.

    with FakeBotAPI() as api:
        app = Application.builder().token(api.token).base_url(api.base_url)...
        api.push_message(chat, user, "/savenow")          # an incoming update
        call = await api.wait_for("sendMessage")          # bounded wait, no sleeps
        api.fail_next("sendMessage", status=429, retry_after=1)

Every call is recorded (:attr:`calls`); ``getUpdates`` long-polls on a queue of
injected updates.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from http import HTTPStatus
from typing import Any, Self
from urllib.parse import parse_qsl, urlsplit

DEFAULT_TOKEN = "123456:TEST-token_for-the-fake-server"
BOT_ID = 123456
BASE_DATE = 1_778_800_000  # a fixed epoch second: message dates are deterministic


@dataclass
class Call:
    """One request the bot made."""

    method: str
    params: dict[str, str]
    files: dict[str, tuple[str | None, bytes]] = field(default_factory=dict)
    status: int = 200
    at: float = field(default_factory=time.monotonic)  # when the server received it

    def json(self, name: str) -> Any:
        raw = self.params.get(name)
        return json.loads(raw) if raw is not None else None

    @property
    def chat_id(self) -> int | None:
        raw = self.params.get("chat_id")
        return int(raw) if raw is not None else None

    @property
    def thread_id(self) -> int | None:
        raw = self.params.get("message_thread_id")
        return int(raw) if raw is not None else None

    @property
    def text(self) -> str:
        return self.params.get("text", "")

    @property
    def keyboard(self) -> list[list[dict[str, Any]]] | None:
        markup = self.json("reply_markup")
        return markup.get("inline_keyboard") if markup else None


@dataclass
class _Failure:
    status: int
    description: str
    retry_after: int | None


def private_chat(user_id: int, first_name: str = "Alice") -> dict[str, Any]:
    return {"id": user_id, "type": "private", "first_name": first_name}


def group_chat(chat_id: int, *, forum: bool = False, title: str = "Team") -> dict[str, Any]:
    chat: dict[str, Any] = {"id": chat_id, "type": "supergroup", "title": title}
    if forum:
        chat["is_forum"] = True
    return chat


def user(user_id: int, first_name: str = "Alice", language_code: str | None = "en") -> dict[str, Any]:
    data: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
    if language_code:
        data["language_code"] = language_code
    return data


class FakeBotAPI:
    """The server. Use as a context manager, or :meth:`start` / :meth:`stop`."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        username: str = "savenow_test_bot",
        can_read_all_group_messages: bool = True,
    ) -> None:
        self.token = token
        self.username = username
        self.can_read_all_group_messages = can_read_all_group_messages
        self.calls: list[Call] = []
        self.port = 0
        self._lock = threading.Lock()
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._messages: dict[tuple[int, int], dict[str, Any]] = {}
        self._chats: dict[int, dict[str, Any]] = {}
        self._failures: dict[str, list[_Failure]] = {}
        self._callback_ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._new_update: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    # -- lifecycle ------------------------------------------------------------------------------

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="fake-bot-api", daemon=True)
        self._thread.start()
        if not self._ready.wait(5):
            raise RuntimeError("fake Bot API server did not start")

    def stop(self) -> None:
        if self._loop is None:
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread:
            self._thread.join(5)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        self._new_update = asyncio.Event()
        self._server = loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self._server.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    # -- scripting ------------------------------------------------------------------------------

    def fail_next(
        self, method: str, *, status: int = 429, retry_after: int | None = 1, description: str | None = None
    ) -> None:
        """Answer the next call of ``method`` with an error (429 with ``retry_after`` by default)."""
        text = description or (
            f"Too Many Requests: retry after {retry_after}" if status == 429 else HTTPStatus(status).phrase
        )
        with self._lock:
            self._failures.setdefault(method, []).append(_Failure(status, text, retry_after))

    def push_update(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queue a raw update (``update_id`` is filled in when missing)."""
        with self._lock:
            update.setdefault("update_id", next(self._update_ids))
            self._updates.append(update)
        if self._loop and self._new_update:
            self._loop.call_soon_threadsafe(self._new_update.set)
        return update

    def push_message(
        self,
        chat: dict[str, Any],
        sender: dict[str, Any],
        text: str,
        *,
        thread_id: int | None = None,
        message_id: int | None = None,
    ) -> dict[str, Any]:
        """An incoming text message; in a forum, ``thread_id`` names the topic (None = General)."""
        message = self._incoming(chat, sender, text, thread_id=thread_id, message_id=message_id)
        self.push_update({"message": message})
        return message

    def push_edit(self, message: dict[str, Any], new_text: str) -> dict[str, Any]:
        edited = dict(message, text=new_text, edit_date=message["date"] + 60)
        edited["entities"] = _command_entities(new_text)
        if not edited["entities"]:
            edited.pop("entities")
        self.push_update({"edited_message": edited})
        return edited

    def push_callback(self, message: dict[str, Any], sender: dict[str, Any], data: str) -> dict[str, Any]:
        """A button press on ``message`` (one the bot sent) by ``sender``."""
        query = {
            "id": f"cq{next(self._callback_ids)}",
            "from": sender,
            "message": message,
            "chat_instance": f"ci{message['chat']['id']}",
            "data": data,
        }
        return self.push_update({"callback_query": query})

    def sent_message(self, call: Call) -> dict[str, Any]:
        """The message (as stored now, after edits) that a sendMessage call created."""
        with self._lock:
            for message in self._messages.values():
                if message.get("_call") is call:
                    return _public(message)
        raise KeyError("no message for that call")

    def message(self, chat_id: int, message_id: int) -> dict[str, Any]:
        with self._lock:
            return _public(self._messages[(chat_id, message_id)])

    # -- inspection -----------------------------------------------------------------------------

    def calls_to(self, method: str, predicate: Callable[[Call], bool] | None = None) -> list[Call]:
        with self._lock:
            return [
                c
                for c in self.calls
                if c.method == method and c.status == 200 and (not predicate or predicate(c))
            ]

    async def wait_for(
        self,
        method: str,
        predicate: Callable[[Call], bool] | None = None,
        *,
        count: int = 1,
        timeout: float = 10.0,
    ) -> list[Call]:
        """Poll until ``count`` successful calls of ``method`` match; fail with the call log after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.calls_to(method, predicate)
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                log = "\n".join(
                    f"  {c.status} {c.method} {c.params}" for c in self.calls if c.method != "getUpdates"
                )
                raise AssertionError(f"expected {count} {method} call(s), got {len(found)}; calls:\n{log}")
            await asyncio.sleep(0.005)

    async def wait_for_attempt(self, method: str, status: int, *, timeout: float = 10.0) -> Call:
        """Wait until a call of ``method`` was answered with ``status`` (e.g. an injected failure)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                found = [c for c in self.calls if c.method == method and c.status == status]
            if found:
                return found[0]
            if time.monotonic() > deadline:
                raise AssertionError(f"no {method} call answered {status}")
            await asyncio.sleep(0.005)

    def method_log(self) -> list[str]:
        with self._lock:
            return [c.method for c in self.calls if c.method != "getUpdates"]

    # -- HTTP -----------------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request_line = await reader.readline()
                if not request_line:
                    break
                _verb, target, _version = request_line.decode("latin-1").split(" ", 2)
                headers = await _read_headers(reader)
                body = await _read_body(reader, headers)
                status, payload = await self._dispatch(target, headers.get("content-type", ""), body)
                data = json.dumps(payload).encode()
                head = (
                    f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
                    "Connection: keep-alive\r\n\r\n"
                )
                writer.write(head.encode("latin-1") + data)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError, ValueError):
            pass
        finally:
            writer.close()

    async def _dispatch(self, target: str, content_type: str, body: bytes) -> tuple[int, dict[str, Any]]:
        path = urlsplit(target).path
        prefix = "/bot"
        if not path.startswith(prefix) or "/" not in path[len(prefix) :]:
            return 404, {"ok": False, "error_code": 404, "description": "Not Found"}
        token, method = path[len(prefix) :].split("/", 1)
        params, files = _parse_body(content_type, body)
        call = Call(method=method, params=params, files=files)
        with self._lock:
            self.calls.append(call)
        if token != self.token:
            call.status = 401
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        failure = self._take_failure(method)
        if failure:
            call.status = failure.status
            answer: dict[str, Any] = {
                "ok": False,
                "error_code": failure.status,
                "description": failure.description,
            }
            if failure.retry_after is not None and failure.status == 429:
                answer["parameters"] = {"retry_after": failure.retry_after}
            return failure.status, answer
        if method == "getUpdates":
            return 200, {"ok": True, "result": await self._get_updates(params)}
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            call.status = 404
            return 404, {"ok": False, "error_code": 404, "description": "Not Found: method not found"}
        try:
            result = handler(call)
        except _BadRequest as error:
            call.status = 400
            return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: {error}"}
        return 200, {"ok": True, "result": result}

    def _take_failure(self, method: str) -> _Failure | None:
        with self._lock:
            queue = self._failures.get(method)
            return queue.pop(0) if queue else None

    async def _get_updates(self, params: dict[str, str]) -> list[dict[str, Any]]:
        offset = int(params.get("offset", "0") or 0)
        limit = int(params.get("limit", "100") or 100)
        deadline = time.monotonic() + float(params.get("timeout", "0") or 0)
        assert self._new_update is not None
        while True:
            with self._lock:
                if offset:
                    self._updates = [u for u in self._updates if u["update_id"] >= offset]
                ready = self._updates[:limit]
                self._new_update.clear()
            remaining = deadline - time.monotonic()
            if ready or remaining <= 0:
                return ready
            try:
                await asyncio.wait_for(self._new_update.wait(), remaining)
            except TimeoutError:
                pass

    # -- methods --------------------------------------------------------------------------------

    def _api_getMe(self, call: Call) -> dict[str, Any]:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "SaveNow",
            "username": self.username,
            "can_join_groups": True,
            "can_read_all_group_messages": self.can_read_all_group_messages,
            "supports_inline_queries": False,
        }

    def _api_true(self, call: Call) -> bool:
        return True

    _api_deleteWebhook = _api_true
    _api_setWebhook = _api_true
    _api_setMyCommands = _api_true
    _api_deleteMyCommands = _api_true
    _api_answerCallbackQuery = _api_true
    _api_sendChatAction = _api_true
    _api_close = _api_true
    _api_logOut = _api_true

    def _api_sendMessage(self, call: Call) -> dict[str, Any]:
        if not call.text.strip():
            raise _BadRequest("message text is empty")
        if len(call.text.encode("utf-16-le")) // 2 > 4096:
            raise _BadRequest("message is too long")
        return self._store_outgoing(call, {"text": call.text})

    def _api_sendDocument(self, call: Call) -> dict[str, Any]:
        name, _content = call.files.get("document", (None, b""))
        document = {
            "file_id": f"doc{len(self.calls)}",
            "file_unique_id": f"u{len(self.calls)}",
            "file_name": name,
        }
        extra: dict[str, Any] = {"document": document}
        if "caption" in call.params:
            extra["caption"] = call.params["caption"]
        return self._store_outgoing(call, extra)

    def _api_editMessageText(self, call: Call) -> dict[str, Any]:
        message = self._stored(call)
        if not call.text.strip():
            raise _BadRequest("message text is empty")
        with self._lock:
            message["text"] = call.text
            markup = call.json("reply_markup")
            if markup and markup.get("inline_keyboard"):
                message["reply_markup"] = markup
            else:  # as Telegram does: an edit without a keyboard removes it
                message.pop("reply_markup", None)
        return _public(message)

    def _api_editMessageReplyMarkup(self, call: Call) -> dict[str, Any]:
        message = self._stored(call)
        with self._lock:
            markup = call.json("reply_markup")
            if markup and markup.get("inline_keyboard"):
                message["reply_markup"] = markup
            else:
                message.pop("reply_markup", None)
        return _public(message)

    # -- helpers --------------------------------------------------------------------------------

    def _incoming(
        self,
        chat: dict[str, Any],
        sender: dict[str, Any],
        text: str,
        *,
        thread_id: int | None,
        message_id: int | None,
    ) -> dict[str, Any]:
        chat_id = int(chat["id"])
        with self._lock:
            self._chats[chat_id] = chat
            number = message_id or next(self._message_counter(chat_id))
        message: dict[str, Any] = {
            "message_id": number,
            "date": BASE_DATE + number,
            "chat": chat,
            "from": sender,
            "text": text,
        }
        entities = _command_entities(text)
        if entities:
            message["entities"] = entities
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            if chat.get("is_forum"):
                message["is_topic_message"] = True
        return message

    def _message_counter(self, chat_id: int) -> itertools.count[int]:
        return self._message_ids.setdefault(chat_id, itertools.count(1000))

    def _store_outgoing(self, call: Call, extra: dict[str, Any]) -> dict[str, Any]:
        chat_id = call.chat_id
        if chat_id is None:
            raise _BadRequest("chat_id is empty")
        with self._lock:
            chat = self._chats.get(chat_id) or (group_chat(chat_id) if chat_id < 0 else private_chat(chat_id))
            number = next(self._message_counter(chat_id))
            message: dict[str, Any] = {
                "message_id": number,
                "date": BASE_DATE + number,
                "chat": chat,
                "from": self._api_getMe(call),
                **extra,
            }
            if call.thread_id is not None:
                if call.thread_id == 1 and chat.get("is_forum"):
                    raise _BadRequest("message thread not found")  # General is sent without a thread id
                message["message_thread_id"] = call.thread_id
                if chat.get("is_forum"):
                    message["is_topic_message"] = True
            markup = call.json("reply_markup")
            if markup:
                message["reply_markup"] = markup
            message["_call"] = call
            self._messages[(chat_id, number)] = message
            return _public(message)

    def _stored(self, call: Call) -> dict[str, Any]:
        chat_id = call.chat_id
        message_id = int(call.params.get("message_id", "0"))
        with self._lock:
            message = self._messages.get((chat_id or 0, message_id))
        if message is None:
            raise _BadRequest("message to edit not found")
        return message


class _BadRequest(Exception):
    pass


def _public(message: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in message.items() if not k.startswith("_")}


def _command_entities(text: str) -> list[dict[str, Any]]:
    if not text.startswith("/"):
        return []
    length = len(text.split()[0]) if text.split() else 1
    return [{"type": "bot_command", "offset": 0, "length": length}]


async def _read_headers(reader: asyncio.StreamReader) -> dict[str, str]:
    headers: dict[str, str] = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return headers
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                await reader.readline()
                return body
            body += await reader.readexactly(size)
            await reader.readline()
    return b""


def _parse_body(content_type: str, body: bytes) -> tuple[dict[str, str], dict[str, tuple[str | None, bytes]]]:
    if content_type.startswith("multipart/form-data"):
        envelope = b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body
        message = BytesParser(policy=HTTP).parsebytes(envelope)
        params: dict[str, str] = {}
        files: dict[str, tuple[str | None, bytes]] = {}
        for part in message.iter_parts():  # type: ignore[attr-defined]
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            filename = part.get_filename()
            if filename is not None:
                files[str(name)] = (filename, payload)
            else:
                params[str(name)] = payload.decode("utf-8")
        return params, files
    if content_type.startswith("application/json"):
        data = json.loads(body or b"{}")
        return {k: v if isinstance(v, str) else json.dumps(v) for k, v in data.items()}, {}
    return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True)), {}
