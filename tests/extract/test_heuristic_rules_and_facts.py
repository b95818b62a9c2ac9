"""Standing rules next to incidents, acknowledged rules, confirmed facts, deferred proposals (en + zh)."""

from __future__ import annotations

from tests.extract.support import chat, extract, saved, text_of


def test_acknowledged_rule_is_its_own_note_next_to_the_incident_zh() -> None:
    messages = chat(
        "u: 备份脚本今天凌晨没跑，`backup.log` 里什么都没有",
        "a: 看了一下：`backup.timer` 还指向旧的 `backup-old.service`，而 `backup.service` 已经改名了。",
        "u: 啊，上周重命名的时候忘了改 timer",
        "a: 根因是重命名 `backup.service` 时没同步改 `backup.timer` 的 Unit=；修复是把 Unit= 改成新名字后 daemon-reload。",
        "u: 改好了，手动触发一次成功 ✅",
        "u: 以后重命名 service 时，`backup.timer` 的 Unit= 必须一起改，改完跑 systemctl list-timers 确认",
        "a: 好的，记下了这条规则。",
        "u: 辛苦了",
    )
    notes = saved(extract(messages))
    assert len(notes) == 2
    rule = [n for n in notes if "必须一起改" in text_of(n)]
    cause = [n for n in notes if "根因" in text_of(n)]
    assert len(rule) == 1 and len(cause) == 1 and rule[0] is not cause[0]
    assert "以后" not in text_of(cause[0])


def test_acknowledged_rule_is_its_own_note_next_to_the_incident_en() -> None:
    messages = chat(
        "u: the webhook returns 401 since the key rotation",
        "a: `WEBHOOK_SECRET` in `/etc/hooks/env` is new, but `hooks.yaml` still has the old `secret:` value.",
        "u: ugh, I only rotated it in the env file",
        "a: Root cause: the rotation updated `WEBHOOK_SECRET` but not `hooks.yaml`. Fix: put the new value in "
        "`hooks.yaml` and restart hooks.",
        "u: restarted, works now",
        "u: from now on, whenever we rotate the secret, `WEBHOOK_SECRET` and `hooks.yaml` must change together",
        "a: Noted.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 2
    assert sum("must change together" in text_of(n) for n in notes) == 1
    assert sum("root cause" in text_of(n) for n in notes) == 1


def test_rule_and_its_restatement_stay_one_note_zh() -> None:
    messages = chat(
        "u: 以后回复别用表格，手机上看不了，用列表就行",
        "a: 明白，以后回复不用表格，改用列表。",
        "u: 好",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1


def test_remember_marker_with_added_acknowledgement_en() -> None:
    messages = chat(
        "u: Let's also remember: every schema migration gets announced in #data-eng before it runs.",
        "a: Added: announce each schema migration in #data-eng before running it.",
        "u: perfect",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    text = text_of(notes[0])
    assert "#data-eng" in text
    assert not text.startswith("let's")  # the marker is a lead-in, not the note


def test_assistant_fact_confirmed_by_the_user_is_kept_en() -> None:
    messages = chat(
        "u: where does the metrics exporter live again?",
        "a: The exporter config is `/etc/exporter/config.yml` and it listens on port 9464 on mon-2.",
        "u: Right, 9464 on mon-2.",
        "u: thanks",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "9464" in text_of(notes[0]) and "/etc/exporter/config.yml" in text_of(notes[0])


def test_assistant_fact_confirmed_by_the_user_is_kept_zh() -> None:
    messages = chat(
        "u: 测试环境的配置文件在哪来着？",
        "a: 测试环境配置是 `/srv/app/test.env`，服务监听 `test-3` 的 7001 端口。",
        "u: 对，7001。",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "7001" in text_of(notes[0])


def test_unconfirmed_lookup_is_not_kept_en() -> None:
    messages = chat(
        "u: what port is the exporter on?",
        "a: It listens on port 9464 on mon-2.",
        "u: ok thanks",
    )
    assert saved(extract(messages)) == []


def test_proposal_the_user_puts_off_is_not_a_decision_zh() -> None:
    messages = chat(
        "u: 报表库的慢查询又把副本拖住了",
        "a: 两个方向：\n1. 给报表用户设 `statement_timeout`；\n2. 打开 `hot_standby_feedback`。\n建议 1。",
        "u: statement_timeout 设多少让她那边定吧 我下午跟她聊",
        "a: 好。",
    )
    for entry in saved(extract(messages)):
        assert "statement_timeout" not in text_of(entry)


def test_proposal_the_user_puts_off_is_not_a_decision_en() -> None:
    messages = chat(
        "u: the report queries keep stalling the replica",
        "a: Fix: set `statement_timeout` to 60s for the reporting role in `reporting.sql`.",
        "u: let me ask Dana about statement_timeout tomorrow",
    )
    for entry in saved(extract(messages)):
        assert "statement_timeout" not in text_of(entry)


def test_recommending_a_list_item_is_not_a_note_zh() -> None:
    messages = chat(
        "u: 定时脚本找不到 rclone",
        "a: 两种改法：\n1. 脚本里写绝对路径\n2. 在 plist 里设 PATH\n建议 2，以后脚本里再用别的 brew 工具也不用管。",
        "u: 好的",
    )
    for entry in saved(extract(messages)):
        assert not text_of(entry).startswith("建议 2")


def test_recommending_a_list_item_is_not_a_note_en() -> None:
    messages = chat(
        "u: the job can't find node",
        "a: Two options:\n1. absolute path in the script\n2. set PATH in the unit\nI'd go with option 2, "
        "it covers every future tool as well.",
        "u: ok",
    )
    for entry in saved(extract(messages)):
        assert "go with option 2" not in text_of(entry)
