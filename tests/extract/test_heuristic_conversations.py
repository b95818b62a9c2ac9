"""Small conversations of our own through the offline extractor (not from the eval set)."""

from __future__ import annotations

from savenow.extract.heuristic import HeuristicExtractor
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of


def test_extractor_contract() -> None:
    extractor = HeuristicExtractor()
    assert extractor.name == "heuristic"
    assert extractor.extract([], []).entries == []


def test_nothing_durable_gives_no_notes_en() -> None:
    messages = chat(
        "u: hi there",
        "a: Hi! What's up?",
        "u: what's the weather like in Lisbon today",
        "a: Sunny, 21°C, light wind from the north.",
        "u: nice. remind me at 4pm to call the dentist",
        "a: OK, I'll remind you at 16:00 today.",
        "u: is the download still running?",
        "a: Still running, 72% done, about 5 minutes left.",
        "u: haha ok thanks",
        "a: Anytime!",
    )
    assert saved(extract(messages)) == []


def test_nothing_durable_gives_no_notes_zh() -> None:
    messages = chat(
        "u: 在吗",
        "a: 在的，什么事？",
        "u: 帮我想个周末去哪玩",
        "a: 可以去郊外爬山，或者去看个展览。",
        "u: 哈哈 算了 在家睡觉",
        "u: 提醒我晚上八点给妈妈打电话",
        "a: 好，今晚 20:00 提醒你。",
        "u: 谢谢",
    )
    assert saved(extract(messages)) == []


def test_corrected_hypothesis_keeps_only_the_confirmed_cause() -> None:
    messages = chat(
        "u: the webhook endpoint returns 502 since this morning",
        "a: My first guess is the upstream timeout. Maybe try raising `proxy_read_timeout` to 120s?",
        "u: raised it, still fails with 502",
        "a: So it isn't the timeout. Check which port the app listens on: `ss -ltnp | grep node`",
        "u: it's listening on 3001, not 3000",
        "a: That's it. The app moved to port 3001 after the upgrade, but `upstream hooks` in "
        "`/etc/nginx/conf.d/hooks.conf` still points at 127.0.0.1:3000. Fix: change the upstream to "
        "127.0.0.1:3001 and reload nginx.",
        "u: changed it, works now",
        "a: Good. Root cause: `hooks.conf` upstream still pointed at port 3000 after the app moved to 3001.",
        "u: thanks!",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    text = text_of(notes[0])
    assert "3001" in text and "hooks.conf" in text
    assert "proxy_read_timeout" not in text and "thanks" not in text


def test_repeated_fix_becomes_one_note() -> None:
    messages = chat(
        "u: the nightly export crashed with `MemoryError` again",
        "a: The cause is `load_all_rows()` in `export/job.py`: it reads the whole table into memory. "
        "Fix: stream with `yield_per(1000)` instead.",
        "u: patched, export works now",
        "u: same crash in the invoice export now",
        "a: Same problem: `export/invoices.py` also calls `load_all_rows()`. Same fix, stream with `yield_per(1000)`.",
        "u: fixed that one too",
        "u: so the rule is never call load_all_rows in export jobs?",
        "a: Right, rule: export jobs never call `load_all_rows()`; always stream with `yield_per(1000)`.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "load_all_rows" in text_of(notes[0])


def test_preference_is_saved_and_merged_into_a_preferences_section() -> None:
    messages = chat(
        "u: 帮我总结一下这个 PR",
        "a: | 文件 | 改动 |\n|---|---|\n| api.py | 加了分页 |",
        "u: 以后回复别用表格，手机上看不了，用列表就行",
        "a: 明白，以后回复不用表格，改用列表。",
        "u: 好",
    )
    sections = [MemorySection("回复偏好", ("默认用中文回复。",))]
    notes = saved(extract(messages, sections))
    assert len(notes) == 1
    assert "表格" in text_of(notes[0])
    assert notes[0].action == "merge" and notes[0].merge_target_title == "回复偏好"


def test_owner_is_saved_with_the_name() -> None:
    messages = chat(
        "u: who do I ask about the search cluster?",
        "a: I don't have that noted yet.",
        "u: Tomasz. he owns search-indexer and the Elasticsearch cluster, mapping changes go through him",
        "a: Got it — Tomasz owns `search-indexer` and the Elasticsearch cluster; mapping changes go through him.",
    )
    sections = [MemorySection("Team", ("Marta owns payments-api.",))]
    notes = saved(extract(messages, sections))
    assert len(notes) == 1
    assert "tomasz" in text_of(notes[0]) and "search-indexer" in text_of(notes[0])
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Team"


def test_owner_in_chinese() -> None:
    messages = chat(
        "u: 以后支付网关的问题都找小周，他负责 pay-gateway",
        "a: 好，pay-gateway 由小周负责，相关问题找他。",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "pay-gateway" in text_of(notes[0])


def test_more_than_five_facts_keeps_the_five_most_valuable() -> None:
    messages = chat(
        "u: let me give you my setup so you stop asking",
        "u: the staging k8s namespace is stg-apps",
        "a: Got it: staging namespace `stg-apps`.",
        "u: grafana is on mon-01 port 3300",
        "a: Noted: Grafana at `mon-01:3300`.",
        "u: secrets are in vault under kv/infra/prod",
        "a: Understood: Vault path `kv/infra/prod`.",
        "u: Jonas owns ingest-svc, ask him before touching the queue config",
        "a: Got it — Jonas owns `ingest-svc`; queue config changes need his OK.",
        "u: from now on deploys only happen Tue/Thu via `make ship ENV=prod`",
        "a: Noted: prod deploys only Tue/Thu via `make ship ENV=prod`.",
        "u: minor, not important: the office printer is prn-2 and the wifi is guest-5g",
        "a: OK.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 5
    joined = "\n".join(text_of(n) for n in notes)
    for fact in ("stg-apps", "3300", "kv/infra/prod", "ingest-svc", "make ship"):
        assert fact in joined
    assert "prn-2" not in joined and "guest-5g" not in joined


def test_fact_already_in_todays_memory_is_reported_as_skip() -> None:
    messages = chat(
        "u: can I install requests with the system pip?",
        "a: No — as we saved earlier, the system Python gets no packages; use `/opt/app/.venv/bin/pip`.",
        "u: right",
    )
    sections = [
        MemorySection(
            "Python rules", ("System Python gets no packages; install into `/opt/app/.venv/bin/pip`.",)
        )
    ]
    entries = extract(messages, sections)
    assert saved(entries) == []
    assert [e.action for e in entries] == ["skip"]


def test_note_extending_a_section_is_a_merge_and_a_new_topic_an_add() -> None:
    messages = chat(
        "u: backups of the wiki db fail since yesterday",
        "a: Found it: `/srv/wiki/backup.sh` writes to `/mnt/nas/wiki`, and the NAS share is now mounted at "
        "`/mnt/nas2`. Fix: point `BACKUP_DIR` in `/srv/wiki/backup.env` at `/mnt/nas2/wiki`.",
        "u: changed it, backup works again",
        "a: For the notes: the wiki backup target is `BACKUP_DIR=/mnt/nas2/wiki` in `/srv/wiki/backup.env`.",
        "u: also from now on every new cron job gets a heartbeat check in healthchecks",
        "a: Noted: from now on every new cron job gets a Healthchecks heartbeat.",
    )
    sections = [MemorySection("Wiki", ("Wiki runs on `/srv/wiki`, backup script `/srv/wiki/backup.sh`.",))]
    notes = saved(extract(messages, sections))
    by_fact = {("mnt/nas2" in text_of(n)): n for n in notes}
    assert by_fact[True].action == "merge" and by_fact[True].merge_target_title == "Wiki"
    assert by_fact[False].action == "add" and "cron" in text_of(by_fact[False])


def test_extraction_is_deterministic() -> None:
    messages = chat(
        "u: the bot token lives in `~/.config/bot/token`",
        "a: Noted: bot token in `~/.config/bot/token`.",
        "u: and from now on the bot only answers in the ops topic 12",
        "a: Got it: the bot only answers in ops topic 12.",
    )
    first = [e.to_json() for e in extract(messages)]
    second = [e.to_json() for e in extract(messages)]
    assert first == second and first


# --------------------------------------------------------------------------- generalization pass


def test_acknowledged_preference_without_markers_en() -> None:
    messages = chat(
        "u: for hotels: I take a room on a high floor, away from the elevator",
        "a: Noted: high floor, away from the elevator, for every hotel booking.",
        "u: thanks",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "high floor" in text_of(notes[0])


def test_acknowledged_preference_without_markers_zh() -> None:
    messages = chat(
        "u: 订餐厅的话，包间优先，大厅太吵",
        "a: 记下了：订餐厅优先订包间，不坐大厅。",
        "u: 谢谢",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "包间" in text_of(notes[0])


def test_fix_merges_into_the_conversation_topic_section_en() -> None:
    sections = [
        MemorySection("Mail server", ["Postfix on `mx-2`, config in `/etc/postfix/main.cf`."]),
        MemorySection("Groceries", ["Buy oat milk."]),
    ]
    messages = chat(
        "u: mail from mx-2 bounces since the morning, the mail server says relay denied",
        "a: Check `mynetworks` in /etc/postfix/main.cf on mx-2.",
        "u: it only lists 127.0.0.0/8",
        "a: That's it. Fix: add the office range, `mynetworks = 127.0.0.0/8 10.8.0.0/16`, then `postfix reload`.",
        "u: done, mail goes out again, works",
    )
    notes = saved(extract(messages, sections))
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "Mail server"


def test_fix_merges_into_the_conversation_topic_section_zh() -> None:
    sections = [
        MemorySection("打印机", ["办公室打印机 `prn-3`，驱动放在 `/srv/drivers/prn-3/`。"]),
        MemorySection("读书", ["这周读完第三章。"]),
    ]
    messages = chat(
        "u: prn-3 打印机又打不出来了，队列一直卡着",
        "a: 看一下 `/srv/drivers/prn-3/` 和 cups 日志里 prn-3 的报错。",
        "u: 说 filter failed",
        "a: 原因找到了：驱动目录里的 PPD 还是 `v1.4`，固件升级后要 `v2.0`。修法：换成 `v2.0` 的 PPD，然后 `cupsenable prn-3`。",
        "u: 换好了，能打印了",
    )
    notes = saved(extract(messages, sections))
    assert notes and notes[0].action == "merge" and notes[0].merge_target_title == "打印机"


def test_restated_saved_fact_is_reported_as_skip_en() -> None:
    sections = [MemorySection("Lab network", ["Lab subnet 172.20.4.0/22, gateway `lab-gw` = 172.20.4.1."])]
    messages = chat(
        "u: remind me, the lab is still 172.20.4.0/22 with lab-gw as gateway?",
        "a: Yes: 172.20.4.0/22, lab-gw = 172.20.4.1.",
        "u: ok thanks",
    )
    entries = extract(messages, sections)
    assert [e.action for e in entries] == ["skip"]
    assert entries[0].title == "Lab network"


def test_restated_saved_fact_is_reported_as_skip_zh() -> None:
    sections = [MemorySection("家里网络", ["路由器 `gw-home` 地址 192.168.8.1，NAS 在 192.168.8.20。"])]
    messages = chat(
        "u: NAS 还是 192.168.8.20 吧",
        "a: 对：NAS 在 192.168.8.20，路由器 gw-home 是 192.168.8.1。",
        "u: 好",
    )
    entries = extract(messages, sections)
    assert [e.action for e in entries] == ["skip"]


def test_applied_instruction_becomes_the_fix_en() -> None:
    messages = chat(
        "u: the backup upload to the bucket stalls at the same point every night",
        "a: Large multipart uploads need a bigger chunk: in `/etc/rclone/rclone.conf` set `chunk_size = 64M`.",
        "u: set chunk_size to 64M, upload finished instantly tonight",
        "a: Good.",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "chunk_size = 64m" in text_of(notes[0])


def test_accepted_proposal_is_the_decision_zh() -> None:
    messages = chat(
        "u: 日志盘老是满",
        "a: 建议把日志轮转改成按天，保留 7 天：`/etc/logrotate.d/app` 里写 `daily` 和 `rotate 7`。",
        "u: 同意 就这么改",
        "u: 改好了 正常了",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1 and "rotate 7" in text_of(notes[0])


def test_title_is_never_cut_inside_a_time() -> None:
    messages = chat(
        "u: rule from now on: backups run before 06:30, never during office hours",
        "a: Got it: backups before 06:30, never during office hours.",
    )
    notes = saved(extract(messages))
    title = notes[0].title if notes else ""
    assert (
        title.startswith("Backups")
        and not title.endswith("rule")  # the subject, without a kind label (issue 12)
        and "06:" not in title
        and not title.endswith("…")
    )
