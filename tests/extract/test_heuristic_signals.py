"""One test per signal of the offline extractor, in English and Chinese."""

from __future__ import annotations

import pytest

from savenow.extract.heuristic import lexicon_en, lexicon_zh, signals
from savenow.extract.heuristic.signals import LEX
from savenow.text.identifiers import identifiers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("config lives in `/srv/app/config.toml`", {"/srv/app/config.toml"}),
        ("set `LOG_LEVEL=debug` and restart", {"log_level=debug", "log_level"}),
        ("the chat is -1009876543210.", {"-1009876543210"}),
        ("the cache host is cache-03 on port 6380", {"cache-03", "6380"}),
        ("读取 `server.tls.cert_path` 这个键", {"server.tls.cert_path", "cert_path"}),
        ("响应头里有 Retry-After 和 X-Request-Id", {"retry-after", "x-request-id"}),
        ("service file ExecReload points at app.service", {"execreload", "app.service"}),
    ],
)
def test_identifiers_find_paths_keys_ids_hosts(text: str, expected: set[str]) -> None:
    assert expected <= identifiers(text)


def test_identifiers_ignore_plain_words_and_small_numbers() -> None:
    assert identifiers("we met at 10 and it was a long-lived idea, e.g. nothing") == set()


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (LEX.NOTE, "For the notes: the worker reads the queue name from env"),
        (LEX.NOTE, "记住：发布前先跑迁移"),
        (LEX.FUTURE, "from now on all invoices go through the new endpoint"),
        (LEX.FUTURE, "以后部署都走 staging 先验证"),
        (LEX.FUTURE, "never push directly to main"),
        (LEX.ROOT_CAUSE, "the root cause was a stale DNS cache"),
        (LEX.ROOT_CAUSE, "原因找到了：证书链缺了中间证书"),
        (LEX.FIX, "Fix: pin the image digest"),
        (LEX.FIX, "修法：把超时改成 30 秒"),
        (LEX.OWNER, "Marta owns the payments service"),
        (LEX.OWNER, "数据平台由小李负责"),
        (LEX.PREFERENCE, "please reply in short bullet points"),
        (LEX.PREFERENCE, "以后回复别用表格"),
        (LEX.PRIOR, "as we saved earlier, the VPN is split-tunnel"),
        (LEX.PRIOR, "按之前的约定，日志保留 7 天"),
        (LEX.CONFIRM, "it works now"),
        (LEX.CONFIRM, "好了，页面正常了"),
        (LEX.REJECT, "still fails with the same error"),
        (LEX.REJECT, "还是不行"),
        (LEX.RULED_OUT, "so it isn't the firewall"),
        (LEX.RULED_OUT, "缓存跟这个没关系"),
        (LEX.CHITCHAT, "haha thanks a lot"),
        (LEX.CHITCHAT, "哈哈 谢谢"),
        (LEX.DEFERRAL, "I'll look at the dashboards tonight"),
        (LEX.DEFERRAL, "明天再弄"),
        (LEX.STATUS, "still running, 40% done"),
        (LEX.STATUS, "还在跑，用时 3 分 10 秒"),
        (LEX.MINOR, "minor thing, not important: the printer is on floor 2"),
        (LEX.MINOR, "这个不重要"),
    ],
)
def test_marker_lexicons_match_both_languages(pattern, text: str) -> None:
    assert pattern.search(text)


def test_english_markers_do_not_fire_inside_longer_words() -> None:
    assert not LEX.CHITCHAT.search("the property is stable")  # "ty"
    assert LEX.PREFERENCE.search("以后回复不用emoji")  # adjacent to CJK still counts


@pytest.mark.parametrize(
    ("reply", "label"),
    [("option 2 please", "2"), ("那就改 1", "1"), ("b.", "b"), ("go with a", "a")],
)
def test_choice_picks_the_list_label(reply: str, label: str) -> None:
    match = LEX.CHOICE.search(reply)
    assert match and (match.group(1) or match.group(2)) == label


def test_sentences_keep_code_spans_and_split_list_items() -> None:
    text = "Found it. The file `a.b.conf` is stale.\n1. Remove it\n2. Reload"
    assert signals.sentences(text) == ["Found it.", "The file `a.b.conf` is stale.", "Remove it", "Reload"]


def test_sentence_items_attach_a_short_code_block_to_a_colon_sentence() -> None:
    text = "修法：\n```ini\n[Service]\nTimeoutSec=30\n```\n然后重启。"
    items = signals.sentence_items(text)
    assert items[0] == (None, "修法： `TimeoutSec=30`")
    assert items[1] == (None, "然后重启。")


def test_sentences_do_not_split_after_eg() -> None:
    assert signals.sentences("tags look like v1.2, e.g. v1.2.3 is a patch") == [
        "tags look like v1.2, e.g. v1.2.3 is a patch"
    ]


def test_questions_are_recognised_in_both_languages() -> None:
    assert signals.is_question("is it on 5432?")
    assert signals.is_question("是不是端口错了吗")
    assert not signals.is_question("it is on 5432.")


@pytest.mark.parametrize(
    ("sentence", "bullet"),
    [
        ("Got it: the bucket is `media-eu`.", "The bucket is `media-eu`."),
        ("For the notes: restart with `make reload`.", "Restart with `make reload`."),
        ("收到。以后先给结论。", "以后先给结论。"),
        ("Fix in `app.yaml`:", "Fix in `app.yaml`"),
    ],
)
def test_clean_bullet_drops_acks_and_lead_ins(sentence: str, bullet: str) -> None:
    assert signals.clean_bullet(sentence) == bullet


def test_conversation_language() -> None:
    assert signals.conversation_language(["帮我看下日志", "好的 谢谢"]) == "zh"
    assert signals.conversation_language(["check the logs please", "`kubectl get pods`"]) == "en"


# --------------------------------------------------------------------------- generalization pass


def test_recollection_is_not_a_note_marker_but_a_request_is() -> None:
    assert not LEX.NOTE.search("I remember reading they throttle uploads at night")
    assert LEX.NOTE.search("remember: the queue name comes from env")


@pytest.mark.parametrize(
    "text", ["原因：两个定时器写在同一个文件里", "Cause: the sidecar starts before the volume"]
)
def test_cause_with_a_colon_is_a_root_cause(text: str) -> None:
    assert LEX.ROOT_CAUSE.search(text)


@pytest.mark.parametrize("text", ["标签只能是 red / blue 两种", "only allowed values are red and blue"])
def test_only_allowed_is_a_standing_rule(text: str) -> None:
    assert LEX.FUTURE.search(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tickets are named OPS-YYYY-NN from now on", "ops-yyyy-nn"),
        ("the lab subnet is 172.20.4.0/22", "172.20.4.0/22"),
        ("the printer sits at 10.1.2.3", "10.1.2.3"),
    ],
)
def test_identifiers_uppercase_codes_and_addresses(text: str, expected: str) -> None:
    assert expected in identifiers(text)


@pytest.mark.parametrize("text", ["agree, let's split them", "同意 就这么拆", "ok do it"])
def test_agreement_to_a_proposal(text: str) -> None:
    assert LEX.AGREE.search(text)


@pytest.mark.parametrize("text", ["Noted: window seats for me", "记下了：周五不排会"])
def test_explicit_acknowledgement(text: str) -> None:
    assert LEX.EXPLICIT_ACK.search(text)


def test_a_url_port_is_not_a_progress_count() -> None:
    assert not LEX.STATUS.search("SESSION_URL=redis://cache-9:6390/0")
    assert LEX.STATUS.search("3/10 chunks uploaded")


def test_the_lexicon_files_are_twins_and_every_marker_joins_both() -> None:
    def markers(module: object) -> list[str]:
        return [name for name, value in vars(module).items() if name.isupper() and isinstance(value, tuple)]

    assert markers(lexicon_en) == markers(lexicon_zh)
    for name in markers(lexicon_en):
        assert getattr(LEX, name).pattern == "|".join(
            [*getattr(lexicon_en, name), *getattr(lexicon_zh, name)]
        )


@pytest.mark.parametrize(
    "sentence",
    [
        "subs@raman-lit.co.uk is the billing address",
        "study_motion is the env name",
        "nas-01 runs restic nightly",
    ],
)
def test_a_bullet_that_opens_with_an_identifier_keeps_its_case(sentence: str) -> None:
    assert signals.clean_bullet(sentence) == sentence


def test_an_english_sentence_still_gets_its_capital() -> None:
    assert signals.clean_bullet("the backup runs at 02:00") == "The backup runs at 02:00"
