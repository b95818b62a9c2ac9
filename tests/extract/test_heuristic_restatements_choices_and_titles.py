"""Acknowledged restatements, decisive fix bullets, chosen options, restated user rules,
restated known facts and titles (en + zh)."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

# --------------------------------------------------------------------------- 1: acknowledged restatements, whole


def test_ack_restatement_is_the_whole_bullet_zh() -> None:
    messages = chat(
        "u: 我的日程习惯：上午 10 点前不要排会议；周五下午留给 deep work，有会议邀请就帮我回绝。",
        "a: 记下：10:00 前不排会议；周五下午是 deep work 时间，有会议邀请就回绝。要我现在看看下周的日历吗？",
        "u: 不用了",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    text = text_of(notes[0])
    assert "10:00" in text and "deep work" in text
    assert not any(b.startswith("记下") for b in notes[0].bullets)


def test_ack_restatement_keeps_every_clause_zh_diet() -> None:
    messages = chat(
        "u: 订餐的时候注意一下，我不吃香菜，而且乳糖不耐，牛奶奶酪这些都避开。",
        "a: 记下：不吃香菜；乳糖不耐，避开牛奶和奶酪。",
        "u: 好",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    text = text_of(notes[0])
    assert "香菜" in text and "乳糖" in text
    assert not any(b.startswith("记下") for b in notes[0].bullets)


def test_ack_restatement_is_the_whole_bullet_en() -> None:
    messages = chat(
        "u: for flights: I want an aisle seat, no red-eyes, and layovers under 2 hours are fine.",
        "a: Noted: aisle seat; no red-eye flights; layovers under 2 hours are OK. Want me to look at next month?",
        "u: not yet",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    text = text_of(notes[0])
    assert "aisle" in text and "red-eye" in text
    assert not any(b.lower().startswith("noted") for b in notes[0].bullets)


# --------------------------------------------------------------------------- 2: the fix bullet carries the identifiers


DOCKER_LOGS = (
    "u: disk on docker-host-2 is full again",
    "a: Let's see which directory grows: run `du -sh /var/lib/docker/containers/*`.",
    "u: 38G /var/lib/docker/containers/9c1e4f/9c1e4f-json.log",
    "a: That's the root cause.",
    "a: The json-file log driver keeps logs without any size limit by default, so one container log grew to 38G.",
    "a: To free space right now: `sudo truncate -s 0 /var/lib/docker/containers/9c1e4f/9c1e4f-json.log`",
    "u: 9c1e is ingest-worker. truncated, 40G free now",
    (
        'a: Permanent fix: default rotation in `/etc/docker/daemon.json`:\n```json\n{"log-driver": "json-file", '
        '"log-opts": {"max-size": "10m", "max-file": "3"}}\n```\nthen `systemctl restart docker`.'
    ),
    "u: done, recreated the containers, works — the log is capped now",
    (
        "a: Same root cause both times: json-file logs without rotation; the `daemon.json` defaults only reach a "
        "container when it's recreated (`--force-recreate`)."
    ),
    (
        "u: from now on every compose file also gets the logging block explicitly, so we never depend on daemon "
        "defaults. use an x-logging anchor for it."
    ),
    "a: Got it: every compose file gets an explicit logging block through an `x-logging` anchor.",
)


def test_permanent_fix_and_closing_restatement_win_en() -> None:
    notes = saved(extract(chat(*DOCKER_LOGS)))
    texts = [text_of(n) for n in notes]
    assert any("max-size" in t or "force-recreate" in t for t in texts)
    assert not any("truncate" in t for t in texts)
    assert not any(b.strip(". ").lower() == "that's the root cause" for n in notes for b in n.bullets)
    assert any("x-logging" in t and "compose" in t for t in texts)


def test_permanent_fix_wins_over_one_off_zh() -> None:
    messages = chat(
        "u: 服务器磁盘又满了",
        "a: 找到原因了：journald 没有上限，/var/log/journal 占了 30G。",
        "a: 先临时清一下：`journalctl --vacuum-size=500M`",
        "u: 清了，空出来了",
        "a: 永久修法：在 `/etc/systemd/journald.conf` 里设 `SystemMaxUse=1G`，然后 `systemctl restart systemd-journald`。",
        "u: 改了，重启了，好了",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("systemmaxuse" in t for t in texts)
    assert not any("vacuum" in t for t in texts)


# --------------------------------------------------------------------------- 3: a decision by choosing an option


def test_chosen_option_is_the_decision_en() -> None:
    messages = chat(
        "u: certbot http-01 keeps failing for home.example.org",
        "a: HTTP-01 needs inbound port 80. Better option: DNS-01 with acme.sh and its `dns_porkbun` plugin, "
        "no open ports needed.",
        "u: what about certbot with a dns plugin?",
        "a: Same problem: there is no maintained certbot plugin for Porkbun.",
        "u: ok acme.sh then",
        "a: Export PORKBUN_API_KEY and PORKBUN_SECRET_API_KEY, then run "
        "`acme.sh --issue --dns dns_porkbun -d home.example.org`.",
        "u: worked, cert issued",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("acme.sh" in t and "dns_porkbun" in t for t in texts)
    assert not any("certbot" in t for t in texts)


def test_chosen_option_is_the_decision_zh() -> None:
    messages = chat(
        "u: NAS 的照片要异地备份，用什么好？",
        "a: 更好的选择：restic 备份到 B2 的 `b2:nas-photos` 仓库，有快照和去重。",
        "u: 那 rclone 呢？",
        "a: rclone 只是同步，没有快照，一样的问题。",
        "u: 就用 restic 吧",
        "a: 先跑 `restic -r b2:nas-photos init`，再跑第一次备份。",
        "u: 跑通了，第一个快照好了",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("restic" in t and "b2:nas-photos" in t for t in texts)
    assert not any("rclone" in t for t in texts)


# --------------------------------------------------------------------------- 4: a user rule restated by "明白，…"


def test_user_rule_restated_with_mingbai_zh() -> None:
    messages = chat(
        "u: 周二下午四点半有钢琴课，我得开车送孩子过去，所以钢琴课的提醒提前两小时发给我，不是一小时",
        "a: 明白，钢琴课是例外：提前两小时提醒（14:30），其他提醒还是默认提前 1 小时。",
        "u: 对",
    )
    notes = saved(extract(messages))
    assert any("钢琴课" in text_of(n) and "两小时" in text_of(n) for n in notes)


def test_user_rule_restated_with_ok_en() -> None:
    messages = chat(
        "u: the build failure alerts should go to the team channel, not to my DMs",
        "a: OK, build failure alerts go to the team channel instead of your DMs.",
        "u: thanks",
    )
    notes = saved(extract(messages))
    assert any("team channel" in text_of(n) for n in notes)


# --------------------------------------------------------------------------- 5: restated known facts are skips


def test_restated_known_fact_is_a_skip_en() -> None:
    sections = [
        MemorySection("Home network", ["Port 80 stays closed on the router; certificates use DNS-01."])
    ]
    messages = chat(
        "u: reminder: port 80 stays closed on the router, whatever we do with certs",
        "a: Right, port 80 stays closed on the router.",
        "u: and the NAS admin page moves to https://nas.home.example.org:5001 from now on",
        "a: Got it: the NAS admin page is at https://nas.home.example.org:5001 from now on.",
    )
    entries = extract(messages, sections)
    skips = [e for e in entries if e.action == "skip"]
    assert any("port 80" in text_of(e) for e in skips)
    assert not any("port 80" in text_of(e) for e in saved(entries))


def test_restated_known_fact_is_a_skip_zh() -> None:
    sections = [MemorySection("家里网络", ["路由器的 80 端口一直关着，证书走 DNS-01。"])]
    messages = chat(
        "u: 提醒一下，路由器的 80 端口一直关着，别再让我开",
        "a: 对，路由器 80 端口保持关闭。",
        "u: 另外 NAS 管理页以后改成 https://nas.home.example.org:5001",
        "a: 记下了：NAS 管理页以后是 https://nas.home.example.org:5001。",
    )
    entries = extract(messages, sections)
    assert any(e.action == "skip" and "80" in text_of(e) for e in entries)
    assert not any("80 端口" in text_of(e) for e in saved(entries))


# --------------------------------------------------------------------------- 6: titles


def test_title_keeps_a_chinese_name_whole() -> None:
    messages = chat(
        "u: 孩子的英语课换老师了，以后是林老师上课，林老师的微信是 lin_teacher_88，请假都找林老师。",
        "a: 记下：英语课以后由林老师上，请假找林老师，微信 lin_teacher_88。",
        "u: 嗯",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    title = notes[0].title
    assert "林老" not in title.replace("林老师", "")
    assert "老师 林" not in title
    assert title.split("：")[0] not in ("要点", "")


def test_title_is_never_a_bare_kind_label() -> None:
    messages = chat(
        "u: for the notes: we meet on the second Tuesday of each month",
        "a: Noted: the group meets on the second Tuesday of each month.",
    )
    notes = saved(extract(messages))
    assert notes
    assert notes[0].title.strip().lower() not in ("notes", "要点", "rule", "规则")


def test_short_rule_message_stays_one_instruction_en() -> None:
    notes = saved(extract(chat(*DOCKER_LOGS)))
    assert any("every compose file" in b.lower() and "x-logging" in b for n in notes for b in n.bullets)


def test_short_rule_message_stays_one_instruction_zh() -> None:
    messages = chat(
        "u: 以后每个 compose 文件都要显式写 logging 配置，不靠 daemon 默认值。用 x-logging 锚点统一写。",
        "a: 好的，记下了这条规则。",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert any("每个 compose 文件" in b and "x-logging" in b for b in notes[0].bullets)


def test_marker_only_sentence_is_never_a_bullet() -> None:
    messages = chat(
        "u: the backup job on nas-1 fails every night",
        "a: That's the root cause.",
        "a: The job writes to /mnt/backup, which is not mounted after a reboot, because the mount unit lacks `nofail`.",
        "a: Fix: add `x-systemd.automount` to the /mnt/backup line in /etc/fstab.",
        "u: done, worked tonight",
    )
    notes = saved(extract(messages))
    assert notes
    assert not any(b.strip(" .").lower() == "that's the root cause" for n in notes for b in n.bullets)
