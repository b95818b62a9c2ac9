from savenow.sessions.transcript import MAX_MESSAGE_CHARS, clean_text, message_from_line

from .storegen import assistant, compaction, message, tool_result, user

METADATA = (
    "Conversation info (untrusted metadata):\n```json\n"
    '{"chat_id": "telegram:-1001234567890", "topic_id": "42", "is_forum": true}\n```\n\n'
    "Sender (untrusted metadata):\n```json\n"
    '{"label": "Alice (1234)", "name": "Alice"}\n```\n\n'
)


def test_metadata_blocks_and_envelope_are_stripped() -> None:
    text = METADATA + "[Thu 2026-11-26 14:03 GMT+8] 网关重启后 token 不匹配"
    assert clean_text(text) == "网关重启后 token 不匹配"


def test_crlf_metadata_and_older_envelopes() -> None:
    text = METADATA.replace("\n", "\r\n") + "[Telegram Alice +2m 2026-01-18T05:19Z] hi"
    assert clean_text(text) == "hi"


def test_other_untrusted_context_blocks_are_stripped() -> None:
    text = 'Replied message (untrusted, for context):\n```json\n{"body": "old"}\n```\n\nyes, that one'
    assert clean_text(text) == "yes, that one"


def test_ordinary_brackets_and_dates_stay() -> None:
    assert (
        clean_text("[link](https://x) on 2026-11-26 14:03 stays")
        == "[link](https://x) on 2026-11-26 14:03 stays"
    )
    assert clean_text("Sender: Bob") == "Sender: Bob"


def test_clip_to_4000() -> None:
    cleaned = clean_text("x" * 10_000)
    assert len(cleaned) == MAX_MESSAGE_CHARS and cleaned.endswith("…")


def test_message_from_line_keeps_text_drops_tools_and_thinking() -> None:
    line = assistant("The fix is to restart.", tool_call=True, thinking=True)
    msg = message_from_line(line)
    assert msg is not None and msg.role == "assistant" and msg.text == "The fix is to restart."
    assert msg.timestamp and msg.timestamp.endswith("Z")


def test_dropped_lines() -> None:
    assert message_from_line(tool_result("secret output")) is None
    assert message_from_line(assistant("", tool_call=True)) is None  # only a tool call
    assert message_from_line(compaction()) is None
    assert message_from_line({"type": "model_change", "provider": "x"}) is None
    assert message_from_line(user(METADATA)) is None  # nothing left after cleaning
    assert message_from_line(assistant("NO_REPLY")) is None
    assert message_from_line(message("custom", "injected")) is None
    assert message_from_line("not a dict") is None
    assert message_from_line({"type": "message", "message": "oops"}) is None


def test_image_blocks_dropped_text_kept() -> None:
    line = message(
        "user",
        [
            {"type": "image", "data": "iVBORw0KGgo=" * 100, "mimeType": "image/png"},
            {"type": "text", "text": "see screenshot"},
        ],
    )
    msg = message_from_line(line)
    assert msg is not None and msg.text == "see screenshot"


def test_timestamp_from_message_millis_when_line_has_none() -> None:
    line = user("hello", 1_795_000_000_000)
    del line["timestamp"]
    msg = message_from_line(line)
    assert msg is not None and msg.timestamp == "2026-11-18T11:06:40Z"
