"""The pre-compaction flush: exactly once per removed range, across many cycles (DESIGN §13)."""

import threading
from pathlib import Path

from savenow.compaction import Flusher, SessionCompactor
from savenow.errors import SaveNowError
from savenow.storage.journal import undo_last

from .support import NOW, RecordingExtractor, append_seed, clock, conversation, msg, write_seed


def make(
    tmp_path: Path, extractor: RecordingExtractor, *, workspace: Path | None = None, max_tokens: int = 80_000
):
    workspace = workspace or tmp_path / "ws"
    flusher = Flusher(
        workspace=workspace,
        memory_dir=workspace / "memory",
        extractor=lambda: extractor,
        now=clock().now,
        today=clock().today,
    )
    return SessionCompactor(
        preserve_recent=4,
        max_tokens=max_tokens,
        store_path=tmp_path / ".clawsession.json",
        flusher=flusher,
        clock=clock(),
    )


def memory_text(tmp_path: Path) -> str:
    return (tmp_path / "ws" / "memory" / f"{NOW.date().isoformat()}.md").read_text(encoding="utf-8")


def test_every_removed_message_is_flushed_exactly_once_across_cycles(tmp_path):
    (tmp_path / "ws").mkdir()
    extractor = RecordingExtractor()
    store = tmp_path / ".clawsession.json"
    write_seed(store, conversation(12))
    compactor = make(tmp_path, extractor)
    first = compactor.compact(force=True)  # a fresh session flushes (no "0 === 0" skip)
    assert first.flush.status == "written" and first.removed_count == 8
    # a chit-chat-only cycle: flushed (nothing durable), the range still counts as handled
    append_seed(store, [msg("user", "哈哈 早上好", 100), msg("assistant", "早上好～", 101)] * 3)
    chit = compactor.compact(force=True)
    assert chit.compacted and chit.flush.status in ("nothing", "written")
    # a threshold-triggered cycle, with a lower threshold on a new compactor for the same store
    append_seed(store, conversation(10, start=40))
    threshold = make(tmp_path, extractor, max_tokens=50)
    assert threshold.should_compact()
    third = threshold.compact()
    assert third.compacted
    # the next compaction with nothing new: no flush, no change
    assert compactor.compact(force=True).removed_count == 0
    removed_total = first.removed_count + chit.removed_count + third.removed_count
    assert len(extractor.seen) == removed_total  # every removed message read once...
    assert len(set(extractor.seen)) == len(set(extractor.seen))
    texts = [m["content"] for m in conversation(12)[:8]]
    assert all(extractor.seen.count(t) == 1 for t in texts)  # ...and never twice


def test_a_failed_write_is_retried_over_the_same_range_and_then_not_again(tmp_path, monkeypatch):
    (tmp_path / "ws").mkdir()
    extractor = RecordingExtractor()
    store = tmp_path / ".clawsession.json"
    write_seed(store, conversation(12))
    compactor = make(tmp_path, extractor)
    from savenow.memory import writer

    real = writer.write_entries
    calls = {"n": 0}

    def failing_once(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise SaveNowError("disk full (simulated)")
        return real(*args, **kwargs)

    monkeypatch.setattr(writer, "write_entries", failing_once)
    failed = compactor.compact(force=True)
    assert failed.compacted  # compaction still works
    assert failed.flush.status == "failed" and failed.flush.retry_pending == 8
    assert not (tmp_path / "ws" / "memory").exists()
    append_seed(store, conversation(6, start=60))
    retried = compactor.compact(force=True)
    assert retried.flush.status == "written"
    assert retried.flush.messages == 8 + retried.removed_count  # the failed range, then the new one
    assert "svc-0" in memory_text(tmp_path)  # from the failed range
    first_text = conversation(1)[0]["content"]
    assert extractor.seen.count(first_text) == 2  # read by the failed attempt and by the retry
    append_seed(store, conversation(6, start=80))
    later = compactor.compact(force=True)
    assert later.flush.messages == later.removed_count  # the retried range is not flushed again
    assert extractor.seen.count(first_text) == 2 and memory_text(tmp_path).count("- 请把服务 svc-0 ") == 1


def test_read_only_or_missing_workspace_skips_the_flush_and_compacts(tmp_path, monkeypatch):
    extractor = RecordingExtractor()
    write_seed(tmp_path / ".clawsession.json", conversation(12))
    missing = make(tmp_path, extractor, workspace=tmp_path / "nope")
    result = missing.compact(force=True)
    assert (
        result.compacted
        and result.flush.status == "skipped"
        and "does not exist" in (result.flush.notice or "")
    )
    assert not (tmp_path / "nope").exists()
    readonly = tmp_path / "ro"
    readonly.mkdir()
    import savenow.compaction.flush as flush_module

    # root ignores permission bits, so the test asks os.access the way a read-only mount answers
    monkeypatch.setattr(flush_module.os, "access", lambda path, mode: Path(path) != readonly)
    append_seed(tmp_path / ".clawsession.json", conversation(8, start=30))
    result = make(tmp_path, extractor, workspace=readonly).compact(force=True)
    assert (
        result.compacted and result.flush.status == "skipped" and "read-only" in (result.flush.notice or "")
    )
    assert list(readonly.iterdir()) == []


def test_two_compactors_at_once_flush_once(tmp_path):
    (tmp_path / "ws").mkdir()
    extractor = RecordingExtractor()
    write_seed(tmp_path / ".clawsession.json", conversation(40))
    start = threading.Barrier(2)
    results = []

    def worker():
        compactor = make(tmp_path, extractor)
        start.wait()
        results.append(compactor.compact(force=True))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.removed_count for r in results) == [0, 36]
    assert len(extractor.seen) == 36 and extractor.calls == 1


def test_a_concurrent_memory_writer_loses_nothing(tmp_path):
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    path = tmp_path / "ws" / "memory" / f"{NOW.date().isoformat()}.md"
    path.write_text("# 2026-11-30\n\n## 09:00 - Mine\n- my own line\n", encoding="utf-8")
    extractor = RecordingExtractor()
    write_seed(tmp_path / ".clawsession.json", conversation(40))
    from savenow.memory.writer import write_entries
    from savenow.models import Entry

    go = threading.Barrier(2)

    def other_writer():
        go.wait()
        write_entries(
            path,
            [Entry(title="Other writer", bullets=["appended concurrently"])],
            workspace=tmp_path / "ws",
            now=NOW,
            day=NOW.date(),
        )

    thread = threading.Thread(target=other_writer)
    thread.start()
    go.wait()
    result = make(tmp_path, extractor).compact(force=True)
    thread.join()
    text = path.read_text(encoding="utf-8")
    assert "- my own line" in text and "appended concurrently" in text
    assert result.flush.status == "written" and all(title in text for title in result.flush.notes)


def test_the_flush_is_undoable(tmp_path):
    (tmp_path / "ws").mkdir()
    write_seed(tmp_path / ".clawsession.json", conversation(12))
    result = make(tmp_path, RecordingExtractor()).compact(force=True)
    assert result.flush.journal_id
    path = tmp_path / "ws" / "memory" / f"{NOW.date().isoformat()}.md"
    assert "svc-" in path.read_text(encoding="utf-8")
    undo_last(tmp_path / "ws", now=NOW)
    assert not path.exists()  # the flush created the file; undo takes it away again


def test_the_real_offline_extractor_never_writes_a_bullet_twice_across_cycles(tmp_path):
    from savenow.service.compaction import CompactionService, Target
    from savenow.storage.journal import read_records

    from .support import settings

    (tmp_path / "ws").mkdir()
    service = CompactionService(settings(tmp_path / "ws"), clock=clock())
    store = tmp_path / ".clawsession.json"
    rounds = [
        [
            msg("user", "NAS 备份挂了，restic 报 401 bad_auth_token", 0),
            msg(
                "assistant",
                "B2 的 key 被删了，新建了 key `ds920-restic-2026`，写进 `/volume1/scripts/restic.env`。",
                1,
            ),
            msg("user", "以后改配置文件之前都先备份一份 .bak，这个你记住", 2),
            msg("assistant", "记住了：以后改任何配置文件之前，先 `cp 文件 文件.bak-YYYYMMDD`。", 3),
        ],
        [
            msg("user", "哈哈 猫又踩键盘了", 10),
            msg("assistant", "哈哈，猫主子巡视工作。", 11),
        ],
        [
            msg("user", "restic 计划任务挪到 03:15 吧，避开 02:00 的 Hyper Backup", 20),
            msg("assistant", "改好了：restic 每天 03:15 跑，和 02:00 的 Hyper Backup 错开。", 21),
        ],
    ]
    write_seed(store, rounds[0] + [msg("user", "继续", 5), msg("assistant", "好", 6)] * 2)
    flushed = []
    for extra in [*rounds[1:], []]:
        result = service.run(Target(store_file=store), force=True, preserve_recent=2)
        flushed.append(result.flush.status)
        append_seed(
            store,
            extra + [msg("user", "继续看看", 30 + len(flushed)), msg("assistant", "好的", 31 + len(flushed))],
        )
    assert flushed[0] == "written"
    text = memory_text(tmp_path)
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(bullets) == len(set(bullets))
    writes = [r for r in read_records(tmp_path / "ws") if r.get("type", "write") == "write"]
    assert len(writes) == sum(status == "written" for status in flushed)
