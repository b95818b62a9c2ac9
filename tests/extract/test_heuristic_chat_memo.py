"""What the offline extractor remembers about a chat belongs to that extraction and that thread;
a lexeme's answers, a pure function of the text, are remembered per process (bounded)."""

from __future__ import annotations

import threading

from savenow.extract.heuristic import signals
from savenow.extract.heuristic.signals import LEX


def test_the_memo_lives_only_inside_its_block() -> None:
    with signals.chat_memo() as memo:
        # (an ASCII sentence is lowercased in C without the memo: a sentence with Chinese uses it)
        LEX.NOTE.search("for the notes: 端口是 8443 (memo block)")
        assert memo.lowered
    with signals.chat_memo() as fresh:
        assert not fresh.lowered


def test_another_thread_does_not_see_this_threads_memo() -> None:
    seen: list[signals.ChatMemo] = []
    inside = threading.Event()
    with signals.chat_memo() as memo:
        LEX.NOTE.search("记住：网关端口是 8443（本线程）")

        def other() -> None:
            with signals.chat_memo() as own:
                LEX.NOTE.search("记住：网关端口是 8443（另一个线程）")
                seen.append(own)
            inside.set()

        worker = threading.Thread(target=other)
        worker.start()
        assert inside.wait(timeout=10)
        worker.join()
    assert seen and seen[0] is not memo
    assert list(memo.lowered) == ["记住：网关端口是 8443（本线程）"]


def test_a_lexeme_remembers_its_answer_across_chats_and_threads() -> None:
    text = "Rule of thumb: never restart the gateway on Fridays (remembered)"
    with signals.chat_memo():
        first = LEX.NOTE.search(text)
    answers: list[object] = []
    worker = threading.Thread(target=lambda: answers.append(LEX.NOTE.search(text)))
    worker.start()
    worker.join(timeout=10)
    assert first is not None and answers == [first]
    assert first.span() == LEX.NOTE.regex.search(text).span()  # type: ignore[union-attr]
