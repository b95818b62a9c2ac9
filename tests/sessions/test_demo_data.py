from savenow.sessions.openclaw import OpenClawFileStore
from savenow.sessions.resolve import SessionCatalog

from .demo_sessions import CHAT_ID, DEMO_DIR, EN_THREAD, ZH_THREAD, build


def test_committed_demo_files_match_the_generator() -> None:
    for relative, content in build().items():
        assert (DEMO_DIR / relative).read_text(encoding="utf-8") == content, relative


def test_demo_store_reads_cleanly_and_is_small() -> None:
    catalog = SessionCatalog([OpenClawFileStore(DEMO_DIR / "sessions")])
    for thread in (ZH_THREAD, EN_THREAD):
        info = catalog.resolve(chat_id=CHAT_ID, thread_id=thread)
        transcript = catalog.read_messages(info, 150)
        assert 30 <= len(transcript.messages) <= 60
        assert transcript.malformed_lines == 0
        for message in transcript.messages:
            assert "untrusted metadata" not in message.text and not message.text.startswith("[Thu")
    total = sum(path.stat().st_size for path in DEMO_DIR.rglob("*") if path.is_file())
    assert total < 100_000
