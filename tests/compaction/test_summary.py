"""The offline summary: identifier-first, final values, no chit-chat, bounded, merged without nesting."""

from savenow.compaction import OfflineSummarizer, SessionMessage
from savenow.compaction.summary import SECTIONS, TITLE, parse_summary
from savenow.text.tokens import estimate_tokens


def messages(*pairs: tuple[str, str], tool: dict | None = None) -> list[SessionMessage]:
    out = []
    for n, (role, text) in enumerate(pairs):
        out.append(SessionMessage(id=str(n), role=role, content=text))  # type: ignore[arg-type]
    return out


CHAT = messages(
    ("user", "早上好"),
    ("assistant", "早上好～今天弄什么？"),
    ("user", "NAS 192.168.31.20 的备份挂了，env 在 /volume1/scripts/restic.env"),
    ("user", "会不会是时间不同步？"),
    ("assistant", "时间是同步的，所以不是时间问题。"),
    ("assistant", "保留策略现在是 `--keep-monthly 6`。"),
    ("user", "月度的改成 12 吧，6 个月那个不要了"),
    ("assistant", "好，`--keep-monthly 6` 作废，改成 `--keep-monthly 12`。"),
    ("user", "哈哈哈哈 猫又踩键盘了"),
    ("user", "以后改配置文件前都先备份一份 .bak"),
    ("assistant", "记下待办：周末做一次恢复测试，目标目录 `/volume1/restore-test`。"),
)


def test_keeps_identifiers_verbatim_and_drops_noise_and_abandoned_values():
    summary = OfflineSummarizer(ratio=1.0).summarize(None, CHAT, max_tokens=2000)
    for kept in (
        "192.168.31.20",
        "/volume1/scripts/restic.env",
        "--keep-monthly 12",
        "/volume1/restore-test",
        ".bak",
    ):
        assert kept in summary
    for dropped in ("早上好", "会不会是时间不同步", "哈哈哈哈", "--keep-monthly 6"):
        assert dropped not in summary


def test_bilingual_headings_and_deterministic():
    first = OfflineSummarizer(ratio=1.0).summarize(None, CHAT, max_tokens=2000)
    assert first == OfflineSummarizer(ratio=1.0).summarize(None, CHAT, max_tokens=2000)
    assert first.startswith(TITLE)
    assert "### Identifiers · 标识符" in first or "### Open items · 待办" in first
    assert all(" · " in f"{s.en} · {s.zh}" for s in SECTIONS)


def test_bounded_by_summary_max_tokens_dropping_identifiers_last():
    many = [
        SessionMessage(
            id=str(i),
            role="user",
            content=f"服务 svc-{i} 在 10.0.{i // 250}.{i % 250} 上，端口 {8000 + i}，以后都这样",
        )
        for i in range(400)
    ]
    summary = OfflineSummarizer().summarize(None, many, max_tokens=300)
    assert estimate_tokens(summary) <= 300
    assert "svc-399" in summary or "8399" in summary  # the newest detail stays; the oldest went first


def test_incremental_merge_never_nests_and_keeps_earlier_facts():
    summarizer = OfflineSummarizer(ratio=1.0)
    first = summarizer.summarize(None, CHAT, max_tokens=2000)
    more = [SessionMessage(id="x1", role="user", content="新的 bucket 叫 zhou-family-bak-2，以后都用它")]
    second = summarizer.summarize(first, more, max_tokens=2000)
    assert second.count(TITLE) == 1 and "Previously compacted" not in second
    assert "192.168.31.20" in second and "zhou-family-bak-2" in second
    parsed = parse_summary(second)
    assert parsed.messages == len(CHAT) + 1
    # merging the same summary again with nothing new changes nothing but stays one summary
    assert summarizer.summarize(second, [], max_tokens=2000).count(TITLE) == 1


def test_files_from_tool_calls_are_cumulative():
    calls = [
        SessionMessage(
            id="1", role="assistant", content="", tool_name="read_file", tool_input="/etc/nginx/nginx.conf"
        ),
        SessionMessage(id="2", role="tool", content="worker_processes auto;"),
        SessionMessage(
            id="3",
            role="assistant",
            content="",
            tool_name="write_file",
            tool_input="/etc/nginx/conf.d/app.conf\nserver {}",
        ),
        SessionMessage(id="4", role="tool", content="wrote 9 bytes"),
    ]
    first = OfflineSummarizer(ratio=1.0).summarize(None, calls, max_tokens=2000)
    later = [
        SessionMessage(
            id="5",
            role="assistant",
            content="",
            tool_name="bash",
            tool_input="sed -i 's/a/b/' /etc/nginx/nginx.conf",
        )
    ]
    second = OfflineSummarizer(ratio=1.0).summarize(first, later, max_tokens=2000)
    files = parse_summary(second).files
    assert files == {"/etc/nginx/conf.d/app.conf": "modified", "/etc/nginx/nginx.conf": "modified"}


def test_a_summary_does_not_depend_on_what_the_process_summarized_before():
    other = [SessionMessage(id="o", role="user", content="Jamal asked for Dec 24 off, his parents visit")]
    mine = [SessionMessage(id="m", role="user", content="Jamal 的账号是 JML-2026-77，以后都用这个")]
    alone = OfflineSummarizer(ratio=1.0).summarize(None, mine, max_tokens=2000)
    OfflineSummarizer(ratio=1.0).summarize(None, other, max_tokens=2000)
    assert OfflineSummarizer(ratio=1.0).summarize(None, mine, max_tokens=2000) == alone
