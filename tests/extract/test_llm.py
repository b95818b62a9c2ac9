"""LLMExtractor against the fake OpenAI-compatible server (tests/fakes/fake_llm.py)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest

from savenow.config import LLMSettings
from savenow.errors import ConfigError, ExtractorError
from savenow.extract.llm import LLMExtractor
from savenow.messages import localize
from savenow.models import ChatMessage, MemorySection
from savenow.text.tokens import estimate_messages_tokens
from tests.extract.conftest import TEST_API_KEY, SleepRecorder
from tests.fakes.fake_llm import FakeLLMServer, chat_reply, drop, error_reply, hang

MESSAGES = [
    ChatMessage("user", "dashboard 又连不上了，提示 unauthorized: gateway token mismatch"),
    ChatMessage("assistant", "看下 systemd unit 里有没有 Environment=OPENCLAW_GATEWAY_TOKEN"),
    ChatMessage("user", "有，删掉那行 daemon-reload 之后就好了"),
    ChatMessage("assistant", "结论：unit 里的 OPENCLAW_GATEWAY_TOKEN 覆盖了 openclaw.json 的 token。"),
]
SECTIONS = [MemorySection("Gateway", ("gateway 用 systemd 跑",))]

GOOD_ENTRY = {
    "candidate_index": 0,
    "title": "网关令牌不匹配修复",
    "bullets": ["systemd unit 里的 OPENCLAW_GATEWAY_TOKEN 覆盖了 openclaw.json；删掉后 daemon-reload"],
    "action": "add",
    "merge_target_title": None,
    "reason": "根因和修复",
}
GOOD_ANSWER = json.dumps({"entries": [GOOD_ENTRY]}, ensure_ascii=False)
USAGE = {"prompt_tokens": 812, "completion_tokens": 95, "total_tokens": 907}

MakeSettings = Callable[..., LLMSettings]


def make_extractor(settings: LLMSettings, sleep: SleepRecorder | None = None) -> LLMExtractor:
    return LLMExtractor(settings, sleep=sleep or SleepRecorder())


def answer(*entries: dict[str, Any]) -> str:
    return json.dumps({"entries": list(entries)}, ensure_ascii=False)


# -- the happy path --------------------------------------------------------------------------------------


def test_one_request_with_the_schema_and_entries_back(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(chat_reply(GOOD_ANSWER, usage=USAGE))

    result = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert [e.title for e in result.entries] == ["网关令牌不匹配修复"]
    assert result.entries[0].action == "add"
    assert result.dropped == []
    assert len(fake_llm.requests) == 1
    request = fake_llm.requests[0]
    assert request.method == "POST"
    assert request.path == "/v1/chat/completions"
    body = request.json
    assert body["model"] == "fake-model"
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["required"] == ["entries"]
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert "Durable" in body["messages"][0]["content"]
    user = body["messages"][1]["content"]
    assert "## Gateway" in user and "- gateway 用 systemd 跑" in user
    assert "U: dashboard 又连不上了" in user and "A: 结论" in user


def test_usage_reported_by_the_server_is_recorded(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(chat_reply(GOOD_ANSWER, usage=USAGE))

    result = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert result.usage is not None
    assert result.usage["prompt_tokens"] == 812
    assert result.usage["completion_tokens"] == 95
    assert result.usage["requests"] == 1
    assert result.usage["estimated_prompt_tokens"] == estimate_messages_tokens(
        fake_llm.requests[0].json["messages"]
    )


def test_without_server_usage_only_the_estimate_is_recorded(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(chat_reply(GOOD_ANSWER))

    result = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert result.usage is not None
    assert "prompt_tokens" not in result.usage
    assert result.usage["estimated_prompt_tokens"] > 0


def test_zero_entries_is_a_valid_answer(fake_llm: FakeLLMServer, llm_settings: MakeSettings) -> None:
    fake_llm.script(chat_reply('{"entries": []}'))

    result = make_extractor(llm_settings()).extract(MESSAGES, [])

    assert result.entries == [] and result.dropped == []


def test_the_key_goes_only_into_the_authorization_header(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(chat_reply(GOOD_ANSWER))

    make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    request = fake_llm.requests[0]
    assert request.headers["authorization"] == f"Bearer {TEST_API_KEY}"
    assert TEST_API_KEY not in request.path
    assert TEST_API_KEY not in request.body.decode("utf-8")


def test_no_key_sends_no_authorization_header(fake_llm: FakeLLMServer, llm_settings: MakeSettings) -> None:
    fake_llm.script(chat_reply(GOOD_ANSWER))

    make_extractor(llm_settings(api_key=None)).extract(MESSAGES, SECTIONS)

    assert "authorization" not in fake_llm.requests[0].headers


def test_a_base_url_with_the_full_path_is_used_as_is(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(chat_reply(GOOD_ANSWER))

    make_extractor(llm_settings(base_url=fake_llm.base_url + "/chat/completions/")).extract(
        MESSAGES, SECTIONS
    )

    assert fake_llm.requests[0].path == "/v1/chat/completions"


@pytest.mark.parametrize("missing", ["base_url", "model"])
def test_missing_base_url_or_model_is_a_config_error(llm_settings: MakeSettings, missing: str) -> None:
    with pytest.raises(ConfigError, match=f"llm.{missing}"):
        LLMExtractor(llm_settings(**{missing: None}))


# -- response_format ladder ------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [400, 422])
def test_json_schema_rejected_falls_back_to_json_object(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, status: int
) -> None:
    fake_llm.script(
        error_reply(status, "This response_format type is unavailable now"),
        chat_reply(GOOD_ANSWER),
        chat_reply(GOOD_ANSWER),
    )
    extractor = make_extractor(llm_settings())

    result = extractor.extract(MESSAGES, SECTIONS)
    extractor.extract(MESSAGES, SECTIONS)  # the next /savenow does not try json_schema again

    assert len(result.entries) == 1
    formats = [r.json["response_format"]["type"] for r in fake_llm.requests]
    assert formats == ["json_schema", "json_object", "json_object"]


def test_both_formats_rejected_falls_back_to_plain_text(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(
        error_reply(400, "response_format json_schema not supported"),
        error_reply(400, "response_format json_object not supported"),
        chat_reply("Sure! Here are the notes:\n" + GOOD_ANSWER),
    )

    result = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert len(result.entries) == 1
    assert "response_format" not in fake_llm.requests[2].json


def test_a_400_with_nothing_left_to_drop_is_reported(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(*(error_reply(400, "context length exceeded") for _ in range(3)))

    with pytest.raises(ExtractorError, match="HTTP 400: context length exceeded"):
        make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)
    assert len(fake_llm.requests) == 3


def test_a_rejected_temperature_is_dropped(fake_llm: FakeLLMServer, llm_settings: MakeSettings) -> None:
    fake_llm.script(
        error_reply(400, "Unsupported value: 'temperature' does not support 0 with this model."),
        chat_reply(GOOD_ANSWER),
    )

    make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    first, second = (r.json for r in fake_llm.requests)
    assert first["temperature"] == 0
    assert "temperature" not in second
    assert second["response_format"]["type"] == "json_schema"


# -- answers that are not clean JSON ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        "Here you go:\n```json\n" + GOOD_ANSWER + "\n```\nLet me know if you need more.",
        "<think>the user fixed a token mismatch…</think>\n" + GOOD_ANSWER,
        "Notes: " + json.dumps([GOOD_ENTRY], ensure_ascii=False) + " (that is all)",
    ],
    ids=["fenced-in-prose", "think-block", "bare-array-in-prose"],
)
def test_json_wrapped_in_prose_is_found(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, content: str
) -> None:
    fake_llm.script(chat_reply(content))

    result = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert [e.title for e in result.entries] == ["网关令牌不匹配修复"]
    assert len(fake_llm.requests) == 1


def test_garbage_twice_is_an_error_after_asking_once_more(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(chat_reply("I cannot help with that."), chat_reply("{not json"))

    with pytest.raises(ExtractorError) as caught:
        make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert "not usable twice" in caught.value.en
    assert "nothing was written" in caught.value.en
    assert "未写入" in caught.value.zh
    assert caught.value.exit_code == 2
    assert len(fake_llm.requests) == 2
    retry_messages = fake_llm.requests[1].json["messages"]
    assert len(retry_messages) == 3 and "not usable" in retry_messages[2]["content"]
    assert "I cannot help" not in retry_messages[2]["content"]  # the bad answer is not sent back


def test_garbage_once_then_a_good_answer_succeeds(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(chat_reply(None), chat_reply(GOOD_ANSWER))

    result = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert len(result.entries) == 1
    assert result.usage is not None and result.usage["requests"] == 2


# -- transient failures ----------------------------------------------------------------------------------


def test_429_then_success_honours_retry_after(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, no_sleep: SleepRecorder
) -> None:
    fake_llm.script(
        error_reply(429, "Rate limit reached", headers={"Retry-After": "7"}), chat_reply(GOOD_ANSWER)
    )

    result = make_extractor(llm_settings(), no_sleep).extract(MESSAGES, SECTIONS)

    assert len(result.entries) == 1
    assert no_sleep.delays == [7.0]
    assert len(fake_llm.requests) == 2


def test_5xx_backs_off_then_gives_up(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, no_sleep: SleepRecorder
) -> None:
    fake_llm.script(*(error_reply(503, "overloaded") for _ in range(4)))

    with pytest.raises(ExtractorError, match=r"failed 4 times \(HTTP 503\)"):
        make_extractor(llm_settings(max_retries=3), no_sleep).extract(MESSAGES, SECTIONS)

    assert no_sleep.delays == [1.0, 2.0, 4.0]
    assert len(fake_llm.requests) == 4


def test_a_very_long_retry_after_is_reported_without_waiting(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, no_sleep: SleepRecorder
) -> None:
    fake_llm.script(error_reply(429, "quota", headers={"Retry-After": "3600"}))

    with pytest.raises(ExtractorError, match="asks to wait 3600 s"):
        make_extractor(llm_settings(), no_sleep).extract(MESSAGES, SECTIONS)

    assert no_sleep.delays == []


def test_timeout_is_retried_then_reported(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, no_sleep: SleepRecorder
) -> None:
    fake_llm.script(hang(), hang())

    with pytest.raises(ExtractorError) as caught:
        make_extractor(llm_settings(timeout_s=0.2, max_retries=1), no_sleep).extract(MESSAGES, SECTIONS)

    assert "no answer within 0.2 s" in caught.value.en
    assert len(fake_llm.requests) == 2
    assert no_sleep.delays == [1.0]


def test_timeout_then_success(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, no_sleep: SleepRecorder
) -> None:
    fake_llm.script(hang(), chat_reply(GOOD_ANSWER))

    result = make_extractor(llm_settings(timeout_s=1.0), no_sleep).extract(
        MESSAGES, SECTIONS
    )  # 1 s: a loaded CI box

    assert len(result.entries) == 1


def test_a_dropped_connection_is_retried(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, no_sleep: SleepRecorder
) -> None:
    fake_llm.script(drop(), chat_reply(GOOD_ANSWER))

    result = make_extractor(llm_settings(), no_sleep).extract(MESSAGES, SECTIONS)

    assert len(result.entries) == 1
    assert no_sleep.delays == [1.0]


def test_an_unreachable_endpoint_is_reported(llm_settings: MakeSettings, no_sleep: SleepRecorder) -> None:
    with FakeLLMServer() as closed:
        url = closed.base_url  # the port is free again once the server stopped

    with pytest.raises(ExtractorError, match="connection failed"):
        make_extractor(llm_settings(base_url=url, max_retries=1), no_sleep).extract(MESSAGES, SECTIONS)


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_key_is_reported_without_retrying(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings, status: int
) -> None:
    fake_llm.script(error_reply(status, f"Incorrect API key provided: {TEST_API_KEY}"))

    with pytest.raises(ExtractorError, match="refused the API key") as caught:
        make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert TEST_API_KEY not in caught.value.en + caught.value.zh
    assert len(fake_llm.requests) == 1


def test_an_unknown_model_is_reported(fake_llm: FakeLLMServer, llm_settings: MakeSettings) -> None:
    fake_llm.script(error_reply(404, "model not found"))

    with pytest.raises(ExtractorError, match="'fake-model' was not found"):
        make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)


# -- never trust the model -------------------------------------------------------------------------------


def test_more_than_five_entries_keeps_five_and_reports_the_rest(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    many = [{"title": f"Note {i}", "bullets": [f"fact {i}"]} for i in range(7)]
    fake_llm.script(chat_reply(answer(*many)))

    result = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert [e.title for e in result.entries] == [f"Note {i}" for i in range(5)]
    assert [e.candidate_index for e in result.entries] == [0, 1, 2, 3, 4]
    assert [(d.title, localize(d.reason)) for d in result.dropped] == [
        ("Note 5", "over the 5-entry limit"),
        ("Note 6", "over the 5-entry limit"),
    ]


def test_empty_and_oversized_entries_are_dropped_with_a_reason(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(
        chat_reply(
            answer(
                {"title": "No bullets", "bullets": []},
                {"title": "", "bullets": ["orphan"]},
                {"title": "Huge", "bullets": ["x" * 5000]},
                {"title": "T" * 300, "bullets": ["ok"]},
                GOOD_ENTRY,
            )
        )
    )

    result = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS)

    assert [e.title for e in result.entries] == ["网关令牌不匹配修复"]
    assert result.entries[0].candidate_index == 0
    reasons = {d.title: localize(d.reason) for d in result.dropped}
    assert reasons["No bullets"] == "no title or no bullets"
    assert reasons["(entry 2)"] == "no title or no bullets"
    assert "too long" in reasons["Huge"]
    assert any("title is too long" in r for r in reasons.values())


def test_a_merge_target_quoted_as_a_heading_is_cleaned(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    fake_llm.script(
        chat_reply(
            answer(
                {
                    "title": "A",
                    "bullets": ["a"],
                    "action": "merge",
                    "merge_target_title": "## 14:02 - Gateway",
                },
                {"title": "B", "bullets": ["b"], "action": "update", "merge_target_title": "Gateway"},
                {"title": "C", "bullets": ["c"], "action": "add", "merge_target_title": "Gateway"},
            )
        )
    )

    entries = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS).entries

    assert [(e.action, e.merge_target_title) for e in entries] == [
        ("merge", "Gateway"),
        ("merge", "Gateway"),
        ("add", None),
    ]


def test_a_merge_target_that_does_not_exist_is_settled_by_the_comparer(
    fake_llm: FakeLLMServer, llm_settings: MakeSettings
) -> None:
    compare = pytest.importorskip("savenow.memory.compare")
    memory = "# 2026-11-28\n\n## Gateway token\n- gateway runs under systemd\n"
    fake_llm.script(
        chat_reply(
            answer(
                {
                    "title": "Unit env",
                    "bullets": ["unit sets OPENCLAW_GATEWAY_TOKEN"],
                    "action": "merge",
                    "merge_target_title": "Gateway tokens",
                },
                {
                    "title": "Backups",
                    "bullets": ["restic repo hl-restic-eu"],
                    "action": "merge",
                    "merge_target_title": "Backup policy",
                },
            )
        )
    )

    entries = make_extractor(llm_settings()).extract(MESSAGES, SECTIONS).entries
    decisions = compare.plan(entries, memory)

    closest, missing = decisions
    assert closest.entry.action == "merge"
    assert closest.entry.merge_target_title == "Gateway token"  # the closest existing heading
    assert missing.entry.action == "add"  # no heading close enough: falls back to add
    assert missing.fallback


# -- secrets ---------------------------------------------------------------------------------------------


def test_the_key_never_reaches_logs_or_error_messages(
    fake_llm: FakeLLMServer,
    llm_settings: MakeSettings,
    no_sleep: SleepRecorder,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    settings = llm_settings(max_retries=1)
    extractor = make_extractor(settings, no_sleep)
    texts: list[str] = [repr(extractor), repr(settings), str(settings.model_dump())]
    scripts = [
        [chat_reply(GOOD_ANSWER, usage=USAGE)],
        [
            error_reply(
                401, f"Incorrect API key provided: {TEST_API_KEY}. Authorization: Bearer {TEST_API_KEY}"
            )
        ],
        [error_reply(400, f"bad key {TEST_API_KEY}")] * 3,
        [error_reply(500, f"boom {TEST_API_KEY}")] * 2,
        [chat_reply("garbage " + TEST_API_KEY), chat_reply("garbage")],
    ]
    for script in scripts:
        fake_llm.script(*script)
        try:
            result = extractor.extract(MESSAGES, SECTIONS)
            texts.append(repr(result))
        except ExtractorError as error:
            texts.extend([error.en, error.zh, str(error), repr(error)])

    texts.append(caplog.text)
    assert all(TEST_API_KEY not in text for text in texts)
    assert all("SECRET" not in text for text in texts)
    assert "LLM request: POST" in caplog.text  # the logs do say what happened


def test_what_the_budget_left_out_is_a_notice(fake_llm: FakeLLMServer, llm_settings: MakeSettings) -> None:
    fake_llm.script(chat_reply(GOOD_ANSWER))
    long_chat = [ChatMessage("user", f"message {i} " + "gateway port 18789 " * 30) for i in range(100)]

    result = make_extractor(llm_settings(max_prompt_tokens=1500)).extract(long_chat, SECTIONS)

    assert len(result.notices) == 1
    notice = localize(result.notices[0], "en")
    assert notice.startswith("The ") and "oldest messages were left out" in notice
    assert "最早的" in localize(result.notices[0], "zh")  # the reader's language, not always English
