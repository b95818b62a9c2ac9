"""The recorder's transcripts (append-only compaction records) and the bot's one function."""

import json
from datetime import timedelta

import pytest

from savenow.errors import CompactionStoreError
from savenow.service.compaction import CompactionService, Target
from savenow.sessions.keys import telegram_session_key
from savenow.sessions.openclaw import read_transcript_tail
from savenow.sessions.recorder import SessionRecorder

from .support import RecordingExtractor, clock, settings

GROUP = "-1001234567890"
KEY = telegram_session_key("main", chat_type="group", chat_id=GROUP, thread_id="42")


def record(service: CompactionService, count: int, start: int = 0) -> None:
    recorder = SessionRecorder(
        service.settings.effective_recorder_dir, agent_id="main", clock=clock(), idle_gap=timedelta(days=1)
    )
    for i in range(start, start + count):
        role = "user" if i % 2 == 0 else "assistant"
        text = (
            f"服务 svc-{i} 的端口改成 {9000 + i}，以后都用这个端口"
            if role == "user"
            else f"好，svc-{i - 1} 已改好"
        )
        recorder.record(
            KEY, role=role, text=text, message_id=i, chat_id=GROUP, chat_type="group", thread_id="42"
        )


@pytest.fixture
def service(tmp_path):
    (tmp_path / "ws").mkdir()
    return CompactionService(
        settings(tmp_path / "ws", max_tokens=200), clock=clock(), extractor=RecordingExtractor()
    )


def transcript_lines(service: CompactionService) -> list[dict]:
    path = service.recorder().transcript_of(KEY)
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_compaction_appends_a_record_and_keeps_old_lines(service):
    record(service, 12)
    before = transcript_lines(service)
    result = service.run(Target(key=KEY), force=True)
    lines = transcript_lines(service)
    assert result.removed_count == 8
    assert lines[: len(before)] == before  # append-only: the old lines stay
    (record_line,) = [line for line in lines if line["type"] == "compaction"]
    kept_first = [line for line in before if line["type"] == "message"][8]
    assert record_line["firstKeptEntryId"] == kept_first["id"]
    assert record_line["tokensBefore"] == result.tokens_before and "svc-0" in record_line["summary"]
    assert record_line["parentId"] == before[-1]["id"]
    status = service.status(Target(key=KEY))
    assert status["messages"] == 4 and status["compactionCount"] == 1
    # the /savenow reader still sees every message (compaction is not a boundary there)
    assert len(read_transcript_tail(service.recorder().transcript_of(KEY), 150).messages) == 12
    # nothing new: no-op; new messages: compaction 2 summarizes what compaction 1 kept
    assert service.run(Target(key=KEY), force=True).removed_count == 0
    record(service, 6, start=12)
    second = service.run(Target(key=KEY), force=True)
    assert second.removed_count == 6 and "svc-8" in second.summary and "svc-0" in second.summary
    assert [h["removedCount"] for h in service.history(Target(key=KEY))] == [8, 6]


def test_chat_and_thread_resolve_to_the_recorded_topic(service):
    record(service, 12)
    assert service.status(Target(chat_id=GROUP, thread_id="42"))["messages"] == 12


def test_openclaw_keys_are_refused(service, tmp_path):
    sessions = service.settings.sessions_dir
    sessions.mkdir(parents=True)
    other = telegram_session_key("main", chat_type="group", chat_id=GROUP, thread_id="7")
    (sessions / "sessions.json").write_text(json.dumps({other: {"sessionId": "abc", "updatedAt": 1}}))
    (sessions / "abc.jsonl").write_text('{"type":"session","version":3,"id":"abc"}\n')
    with pytest.raises(CompactionStoreError, match="never writes"):
        service.run(Target(key=other), force=True)
    assert (sessions / "abc.jsonl").read_text() == '{"type":"session","version":3,"id":"abc"}\n'


def test_the_bot_function_compacts_past_the_threshold_flush_first(service):
    record(service, 2)
    assert service.after_message(KEY) is None  # under every threshold: quiet
    record(service, 14, start=2)
    notice = service.after_message(KEY, "zh")
    assert notice is not None and notice.result is not None and notice.result.compacted
    assert "/savenow undo" in notice.en and "/savenow undo" in notice.zh
    assert "压缩" in notice.message("zh") and "Compacted" in notice.message("en")
    assert notice.flush is not None and notice.flush.status == "written"
    memory = (service.settings.memory_dir / "2026-11-30.md").read_text(encoding="utf-8")
    assert "svc-0" in memory
    assert service.after_message(KEY) is None  # just compacted: quiet again


def test_compact_command_and_status(service):
    record(service, 12)
    status = service.command(KEY, "status")
    assert "12 messages" in status.en and "12 条消息" in status.zh
    done = service.command(KEY, "")
    assert done.result is not None and done.result.removed_count == 8
    again = service.command(KEY, "")
    assert again.result is not None and not again.result.compacted and "Nothing to compact" in again.en


def test_model_context_is_summary_then_kept_messages(service):
    record(service, 12)
    service.run(Target(key=KEY), force=True)
    context = service.compactor(Target(key=KEY)).model_context()
    assert context[0]["role"] == "system" and context[0]["content"].startswith("## Session summary")
    assert [m["role"] for m in context[1:]] == ["user", "assistant"] * 2


def test_check_compacts_every_recorded_session_due_and_then_is_quiet(service):
    record(service, 16)
    done = service.check()
    assert [label for label, _ in done] == [KEY]
    assert service.check() == []
    log = service.settings.state_dir / "logs" / "compaction.log"
    assert len(log.read_text().splitlines()) == 1


def test_the_early_flush_at_the_soft_threshold_is_not_flushed_again(tmp_path):
    (tmp_path / "ws").mkdir()
    extractor = RecordingExtractor()
    service = CompactionService(
        settings(tmp_path / "ws", max_tokens=200, reserve_tokens_floor=0, soft_threshold_tokens=150),
        clock=clock(),
        extractor=extractor,
    )
    record(service, 8)
    notice = service.after_message(KEY)
    assert notice is not None and notice.flush is not None and notice.flush.status == "written"
    assert notice.result is None  # flushed ahead, not compacted
    early = len(extractor.seen)
    assert early == 4  # what the next compaction would remove
    record(service, 12, start=8)
    result = service.run(Target(key=KEY))
    assert result.compacted and result.flush.messages == result.removed_count - early
    assert len(extractor.seen) == result.removed_count  # each removed message read exactly once


def test_cli_names_a_recorded_session_by_key(service, capsys, monkeypatch):
    from savenow.cli import main

    record(service, 12)
    monkeypatch.setenv("SAVENOW_CONFIG", str(service.settings.workspace / "none.yaml"))
    (service.settings.workspace / "none.yaml").write_text("{}\n")
    code = main(["compact", "status", KEY, "--workspace", str(service.settings.workspace), "--json"])
    status = json.loads(capsys.readouterr().out)
    assert code == 0 and status["messages"] == 12 and status["store"] == KEY
