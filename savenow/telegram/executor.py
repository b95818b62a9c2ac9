"""A thread pool of daemon threads for the bot's service calls.

``concurrent.futures.ThreadPoolExecutor`` joins its threads when the interpreter
exits, so one extraction stuck on a slow LLM would hold a stopping bot for
minutes. These threads are daemons: on shutdown the queued work is cancelled,
the running calls are abandoned (their results are never used), and the process
exits at once.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

T = TypeVar("T")

_Work = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class DaemonExecutor(Executor):
    def __init__(self, max_workers: int, thread_name_prefix: str = "worker") -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self._max_workers = max_workers
        self._prefix = thread_name_prefix
        self._queue: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._idle = 0
        self._lock = threading.Lock()
        self._shutdown = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot submit after shutdown")
            self._queue.put((future, fn, args, kwargs))
            if self._idle == 0 and len(self._threads) < self._max_workers:
                thread = threading.Thread(
                    target=self._work, name=f"{self._prefix}_{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
            else:
                self._idle -= 1 if self._idle else 0
        return future

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            future, fn, args, kwargs = item
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args, **kwargs))
                except BaseException as error:  # noqa: BLE001 - handed to whoever awaits the future
                    future.set_exception(error)
            with self._lock:
                if self._shutdown:
                    return
                self._idle += 1

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shutdown = True
            threads = list(self._threads)
        if cancel_futures:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        for _ in threads:
            self._queue.put(None)
        if wait:
            for thread in threads:
                thread.join()
