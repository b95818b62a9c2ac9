"""Corrections and superseded values (issue 15, fifth rules pass): one test per rule, en and zh.

The chats are invented for the rule; none comes from an evaluation set.
"""

from __future__ import annotations

from savenow.compaction import OfflineSummarizer, SessionMessage
from savenow.compaction.changes import settings_rewritten


def chat(*turns: tuple[str, ...]) -> list[SessionMessage]:
    """(role, content), ("assistant", content, tool, input), or ("tool", content) after a call."""
    out: list[SessionMessage] = []
    for turn in turns:
        n = str(len(out))
        if len(turn) == 4:
            out.append(
                SessionMessage(id=n, role="assistant", content=turn[1], tool_name=turn[2], tool_input=turn[3])
            )
        else:
            out.append(SessionMessage(id=n, role=turn[0], content=turn[1]))  # type: ignore[arg-type]
    return out


def summarize(messages: list[SessionMessage], previous: str | None = None) -> str:
    return OfflineSummarizer(ratio=1.0).summarize(previous, messages, max_tokens=4000)


# ---------------------------------------------------------------- the line as said


def test_an_acknowledgement_lead_keeps_the_option_after_it():
    en = summarize(
        chat(("user", "halve the batch on gpu-2"), ("assistant", "OK, --batch-size 32 --grad-accum 2."))
    )
    assert "--batch-size 32" in en
    zh = summarize(
        chat(("user", "gpu-2 上 batch 减半"), ("assistant", "好的，--batch-size 32 --grad-accum 2。"))
    )
    assert "--batch-size 32" in zh


def test_instead_of_drops_the_value_after_it_not_the_one_before():
    en = summarize(
        chat(
            ("user", "take the 10:00 train"),
            ("user", "too late. Switched: 08:30 from Leeds instead of the 10:00."),
        )
    )
    assert "08:30" in en and "10:00" not in en
    zh = summarize(chat(("user", "坐 10:00 那班"), ("user", "太晚了，坐 08:30 那班而不是 10:00")))
    assert "08:30" in zh and "10:00" not in zh


def test_a_decided_value_set_against_another_drops_the_other():
    en = summarize(
        chat(("user", "the pool listens on 6432"), ("user", "ops changed it: our pool is on 6433, not 6432"))
    )
    assert "6433" in en and "6432" not in en
    zh = summarize(chat(("user", "连接池端口是 6432"), ("user", "运维改了：我们的池子用 6433，不是 6432")))
    assert "6433" in zh and "6432" not in zh


def test_a_finding_that_corrects_a_belief_keeps_the_intended_value():
    zh = summarize(
        chat(
            ("user", "每天 23:30 跑导出脚本 export.py"),
            ("assistant", "服务器时区是 UTC，export.py 实际是早上 7:30 跑的，不是 23:30。"),
        )
    )
    assert "23:30" in zh
    en = summarize(
        chat(
            ("user", "export.py runs daily at 23:30"),
            ("assistant", "The box is on UTC, so export.py actually runs at 7:30, not 23:30."),
        )
    )
    assert "23:30" in en


# ---------------------------------------------------------------- settings set again


def test_a_file_rewrite_sets_the_assignments_it_changed():
    before = (
        "import csv\nDELIVERY_FEE = 8      # fee\nFREE_OVER = 88\n\ndef clean(v):\n    return v.strip()\n"
    )
    after = (
        "import csv\nDELIVERY_FEE = 6      # fee\nFREE_OVER = 88\n\ndef clean(v):\n    return v.strip('`')\n"
    )
    assert settings_rewritten(before, after) == [("delivery_fee", "DELIVERY_FEE = 6")]
    assert settings_rewritten("port: 6432\nhost: db\n", "port: 6433\nhost: db\n") == [("port", "port: 6433")]


def test_a_value_a_rewrite_replaced_leaves_the_lines_that_spell_it_out():
    body = "FEE = 8\nLIMIT = 88\n"
    en = summarize(
        chat(
            ("assistant", "", "read_file", "/srv/shop/pricing.py"),
            ("tool", body),
            ("assistant", "The fee is still FEE = 8 in /srv/shop/pricing.py, is that right?"),
            ("user", "no, the fee is 6 from this month, change it"),
            ("assistant", "", "write_file", "/srv/shop/pricing.py\nFEE = 6\nLIMIT = 88\n"),
            ("tool", "wrote 20 bytes"),
        )
    )
    assert "FEE = 6" in en and "FEE = 8" not in en
    zh = summarize(
        chat(
            ("assistant", "", "read_file", "/srv/shop/pricing.py"),
            ("tool", body),
            ("assistant", "配送费现在写的是 FEE = 8，还对吗？"),
            ("user", "不对，这个月开始 6 块，改一下"),
            ("assistant", "", "write_file", "/srv/shop/pricing.py\nFEE = 6\nLIMIT = 88\n"),
            ("tool", "wrote 20 bytes"),
        )
    )
    assert "FEE = 6" in zh and "FEE = 8" not in zh


def test_an_option_given_again_drops_its_earlier_value():
    en = summarize(
        chat(
            ("user", "train with --batch-size 64 on gpu-2"),
            ("user", "oom. now --batch-size 32 --grad-accum 2"),
        )
    )
    assert "--batch-size 32" in en and "--batch-size 64" not in en
    zh = summarize(
        chat(
            ("user", "gpu-2 上用 --batch-size 64 训练"),
            ("user", "爆显存了，改成 --batch-size 32 --grad-accum 2"),
        )
    )
    assert "--batch-size 32" in zh and "--batch-size 64" not in zh


# ---------------------------------------------------------------- taking back what was just said


def test_a_message_that_opens_by_taking_back_cancels_the_statement_before_it():
    en = summarize(
        chat(
            ("user", "set the backup retention to 14 days on nas-01"),
            ("assistant", "OK, retention 14 days on nas-01."),
            ("user", "scratch that, keep 30 days like before"),
            ("assistant", "Retention stays at 30 days."),
        )
    )
    assert "14 days" not in en and "30 days" in en
    zh = summarize(
        chat(
            ("user", "nas-01 上备份保留改成 14 天"),
            ("assistant", "好，nas-01 保留 14 天。"),
            ("user", "不对，还是保留 30 天吧"),
            ("assistant", "好，保留 30 天不变。"),
        )
    )
    assert "14 天" not in zh and "30 天" in zh


def test_never_mind_takes_back_the_plan_and_the_reply_that_worked_it_out():
    en = summarize(
        chat(
            ("user", "let's add a redis cache in front of the orders api"),
            ("assistant", "I can add redis on port 6380 with a 5 minute TTL."),
            ("user", "never mind, let's not. the api is fast enough"),
            ("assistant", "OK, no cache."),
            ("user", "the deploy host is app-03.internal"),
        )
    )
    assert "6380" not in en and "redis cache" not in en and "app-03.internal" in en
    zh = summarize(
        chat(
            ("user", "在订单接口前面加一层 redis 缓存吧"),
            ("assistant", "可以，redis 用 6380 端口，TTL 5 分钟。"),
            ("user", "算了，不加了，接口够快"),
            ("assistant", "好，不加缓存。"),
            ("user", "部署机器是 app-03.internal"),
        )
    )
    assert "6380" not in zh and "redis 缓存" not in zh and "app-03.internal" in zh


def test_taking_back_reaches_only_the_message_just_before():
    en = summarize(
        chat(
            ("user", "the nightly dump goes to /srv/dumps on nas-01"),
            ("assistant", "Noted, /srv/dumps on nas-01."),
            ("user", "also compress the dumps with zstd -19"),
            ("assistant", "zstd -19 it is."),
            ("user", "scratch that, plain gzip is fine"),
        )
    )
    assert "/srv/dumps" in en and "zstd -19" not in en
    zh = summarize(
        chat(
            ("user", "每晚的备份放到 nas-01 的 /srv/dumps"),
            ("assistant", "记下了，nas-01 的 /srv/dumps。"),
            ("user", "再用 zstd -19 压缩一下"),
            ("assistant", "好，zstd -19。"),
            ("user", "算了，gzip 就行"),
        )
    )
    assert "/srv/dumps" in zh and "zstd -19" not in zh


def test_after_a_question_the_same_words_decline_the_offer_and_take_back_nothing_else():
    en = summarize(
        chat(
            ("user", "move the cron job to 02:00 on app-03"),
            ("assistant", "Moved to 02:00 on app-03. Want me to also add a failure alert?"),
            ("user", "never mind the alert, it's fine"),
        )
    )
    assert "02:00" in en
    zh = summarize(
        chat(
            ("user", "app-03 上的定时任务挪到 02:00"),
            ("assistant", "已挪到 02:00。要不要再加个失败告警？"),
            ("user", "算了，不用"),
        )
    )
    assert "02:00" in zh


def test_a_reply_that_turns_the_question_down_does_not_carry_the_question():
    en = summarize(
        chat(
            ("user", "214 invoices need their pdfs before 9am"),
            ("assistant", "I can backfill them with a management command. Run it tonight?"),
            ("user", "not tonight. tomorrow 6am"),
            ("assistant", "OK, backfill tomorrow at 06:00."),
        )
    )
    assert "Run it tonight" not in en and "06:00" in en
    zh = summarize(
        chat(
            ("user", "214 张发票 9 点前要补好 pdf"),
            ("assistant", "我可以用管理命令补。今晚就跑吗？"),
            ("user", "不，明早 6 点"),
            ("assistant", "好，明早 06:00 补。"),
        )
    )
    assert "今晚就跑吗" not in zh and "06:00" in zh


# ---------------------------------------------------------------- counts changed


def test_a_new_count_of_the_same_thing_drops_the_old_count():
    en = summarize(
        chat(("user", "the party is on Dec 12 at 7pm, 14 guests"), ("user", "update: 16 guests now"))
    )
    assert "16 guests" in en and "14 guests" not in en
    zh = summarize(chat(("user", "聚会 12月12号 晚上7点，14 个人"), ("user", "更新一下：现在是 16 个人")))
    assert "16 个人" in zh and "14 个人" not in zh


def test_a_count_given_up_drops_the_line_that_gave_it():
    en = summarize(
        chat(("user", "run the sync with 5 workers on worker-bx3"), ("user", "make it 6 instead of 5"))
    )
    assert "5 workers" not in en and "worker-bx3" in en
    zh = summarize(chat(("user", "worker-bx3 上同步用 5 个 worker"), ("user", "改成 6 个吧，不要 5 个")))
    assert "5 个 worker" not in zh and "worker-bx3" in zh


def test_a_report_of_a_count_changes_nothing():
    en = summarize(
        chat(
            ("user", "keep 14 snapshots on nas-01"),
            ("assistant", "Checked: the pool currently has 9 snapshots."),
        )
    )
    assert "14 snapshots" in en
    zh = summarize(
        chat(
            ("user", "nas-01 上保留 14 个 snapshot"), ("assistant", "看了一下，池子里现在是 9 个 snapshot。")
        )
    )
    assert "14 个 snapshot" in zh


# ---------------------------------------------------------------- a setting left as it is


def test_a_setting_left_as_it_is_cancels_the_change_proposed_for_it():
    en = summarize(
        chat(
            ("assistant", "wal_keep_size is 1GB on db-01. I suggest raising wal_keep_size to 4GB."),
            ("user", "4GB won't be enough at peak. we'll use a replication slot"),
            ("assistant", "OK: slot replica_02 on db-01, wal_keep_size stays at 1GB."),
        )
    )
    assert "to 4GB" not in en and "replica_02" in en
    zh = summarize(
        chat(
            ("assistant", "db-01 的 wal_keep_size 只有 1GB，建议把 wal_keep_size 改成 4GB。"),
            ("user", "高峰期 4GB 不够吧，那就用复制槽，wal_keep_size 不动了"),
            ("assistant", "好：复制槽 replica_02，wal_keep_size 保持 1GB 不动。"),
        )
    )
    assert "改成 4GB" not in zh and "replica_02" in zh


def test_leaving_something_that_is_no_setting_cancels_nothing():
    en = summarize(chat(("user", "raise max_conn to 800 on pgb-01"), ("user", "keep it simple for now")))
    assert "800" in en
    zh = summarize(chat(("user", "pgb-01 的 max_conn 调到 800"), ("user", "其他的保持不变")))
    assert "800" in zh


# ---------------------------------------------------------------- people outlive stale lines


def test_a_person_keeps_their_role_when_the_line_that_named_them_goes_stale():
    zh = summarize(
        chat(
            ("user", "PM 周姐说 release date 定 11月28号"),
            ("user", "周姐刚说 11月28号 还是太赶，最终定 12月5号"),
        )
    )
    assert "11月28号" not in zh and "PM 周姐" in zh
    en = summarize(
        chat(
            ("user", "our accountant Ravi wants the books by Dec 3"),
            ("user", "Ravi says Dec 3 is too early, finally settled on Dec 9"),
        )
    )
    assert "Dec 3" not in en and "accountant Ravi" in en


# ---------------------------------------------------------------- typos put right


def test_an_identifier_spelled_again_one_typo_apart_replaces_the_mistake():
    en = summarize(
        chat(
            ("user", "send the invite to hannah.wells@gmial.com"),
            ("assistant", "Sent to hannah.wells@gmial.com."),
            ("user", "it bounced. the right one is hannah.wells@gmail.com"),
        )
    )
    assert "gmial" not in en and "hannah.wells@gmail.com" in en
    zh = summarize(
        chat(
            ("user", "邀请发到 li.na@exmaple.org"),
            ("user", "打错了，是 li.na@example.org，重发一下"),
        )
    )
    assert "exmaple" not in zh and "li.na@example.org" in zh


def test_identifiers_that_differ_by_a_digit_or_without_a_typo_are_two_things():
    en = summarize(chat(("user", "drain worker-1 tonight"), ("user", "and reboot worker-2 after the drain")))
    assert "worker-1" in en and "worker-2" in en
    zh = summarize(chat(("user", "db-prod-a 先升级"), ("user", "db-prod-b 下周再说")))
    assert "db-prod-a" in zh and "db-prod-b" in zh


def test_a_setting_read_cut_short_is_not_set_again():
    en = summarize(
        chat(
            ("user", "set CRON_MIN=3,23,43 in compose"), ("assistant", "compose now has `CRON_MIN=3,23,43`.")
        )
    )
    assert "CRON_MIN=3,23,43" in en
    zh = summarize(
        chat(("user", "rsync 带 --chown=1026:100 拷过去"), ("user", "以后都用 --chown=1026:100 --chmod=D775"))
    )
    assert "--chown=1026:100" in zh and "旧值" not in zh


# ---------------------------------------------------------------- values the summary must see


def test_a_number_in_scientific_notation_is_a_value():
    en = summarize(chat(("user", "loss oscillates. next run use lr 2e-4 instead of 3e-4")))
    assert "2e-4" in en and "3e-4" not in en
    zh = summarize(chat(("user", "lr 有点大，下一次改 2e-4")))
    assert "2e-4" in zh


def test_a_date_written_day_first_is_a_value_and_moves_like_one():
    en = summarize(
        chat(("assistant", "So the order has to go in by 25 Nov."), ("user", "we pushed the order to 27 Nov"))
    )
    assert "27 Nov" in en and "25 Nov" not in en
    zh = summarize(chat(("user", "订单 25 Nov 前要下"), ("user", "订单推到 27 Nov")))
    assert "27 Nov" in zh and "25 Nov" not in zh


def test_a_habit_named_as_one_is_a_preference():
    en = summarize(chat(("user", "don't push to main. PR please. and conventional commits as usual")))
    assert "### Preferences" in en and "conventional commits as usual" in en
    zh = summarize(chat(("user", "提交信息老规矩用英文写")))
    assert "### Preferences" in zh and "老规矩用英文写" in zh


def test_taking_back_reaches_a_plan_the_assistant_echoed():
    en = summarize(
        chat(
            ("user", "upgrade db-2 to postgres 16 this weekend"),
            ("assistant", "OK, Postgres 16 upgrade for db-2 on Saturday."),
            ("user", "on second thought, let's stay on postgres 15 for now"),
        )
    )
    assert "postgres 16" not in en.casefold() and "postgres 15" in en
    zh = summarize(
        chat(
            ("user", "这周末把 db-2 升到 postgres 16"),
            ("assistant", "好，周六把 db-2 升级到 Postgres 16。"),
            ("user", "当我没说，先保持 postgres 15"),
        )
    )
    assert "postgres 16" not in zh.casefold() and "postgres 15" in zh


def test_what_follows_the_take_back_stands_as_the_line():
    en = summarize(
        chat(
            ("user", "expose the app on 8080 on web-01"),
            ("assistant", "Exposing 8080 on web-01."),
            ("user", "hold off on that, expose it on 8443 behind nginx-02"),
        )
    )
    assert "Exposing 8080" not in en and "8443" in en and "hold off" not in en
    zh = summarize(
        chat(
            ("user", "web-01 上用 8080 端口对外"),
            ("assistant", "好，web-01 开 8080。"),
            ("user", "刚才说的不算，走 nginx-02 的 8443"),
        )
    )
    assert "开 8080" not in zh and "8443" in zh and "不算" not in zh


def test_words_that_only_look_like_a_take_back_take_nothing_back():
    en = summarize(
        chat(
            ("user", "rotate the key for spokeshop-writer on Friday"),
            ("assistant", "Key rotation for spokeshop-writer on Friday."),
            ("user", "actually, no problem if it slips to Monday"),
        )
    )
    assert "spokeshop-writer" in en and "Friday" in en
    zh = summarize(
        chat(
            ("user", "周五轮换 spokeshop-writer 的密钥"),
            ("assistant", "好，周五轮换 spokeshop-writer 的密钥。"),
            ("user", "不对劲啊，昨天的备份也没跑"),
        )
    )
    assert "周五轮换" in zh
