"""What the offline extractor remembers about a chat belongs to that extraction and that thread."""

from __future__ import annotations

import threading

from savenow.extract.heuristic import signals
from savenow.extract.heuristic.signals import LEX


def test_the_memo_lives_only_inside_its_block() -> None:
    with signals.chat_memo() as memo:
        LEX.NOTE.search("for the notes: the port is 8443")
        assert memo.searches
    with signals.chat_memo() as fresh:
        assert not fresh.searches


def test_another_thread_does_not_see_this_threads_memo() -> None:
    seen: list[object] = []
    inside = threading.Event()
    with signals.chat_memo() as memo:
        LEX.NOTE.search("记住：网关端口是 8443")

        def other() -> None:
            with signals.chat_memo() as own:
                LEX.NOTE.search("记住：网关端口是 8443")
                seen.append(own)
            inside.set()

        worker = threading.Thread(target=other)
        worker.start()
        assert inside.wait(timeout=10)
        worker.join()
    assert seen and seen[0] is not memo
    assert len(memo.searches) == 1
