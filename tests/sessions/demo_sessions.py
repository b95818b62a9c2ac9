"""The bundled demo store (``savenow/demo_data``), generated from the scripts below.

    python -m tests.sessions.demo_sessions   # rewrite savenow/demo_data/sessions

``test_demo_data.py`` checks that the committed files equal this output, so edit
the scripts here, not the JSONL files.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

DEMO_DIR = Path(__file__).resolve().parents[2] / "savenow" / "demo_data"
TZ = ZoneInfo("Asia/Shanghai")
CHAT_ID = "-1009876543210"
GROUP_TITLE = "Acme Ops"
ZH_THREAD, EN_THREAD = "101", "202"
NOW = "2026-11-26T18:30:00+08:00"

# (kind, who, text): "u" user message from a member, "a" the agent's reply,
# "t" the agent runs a tool (who = command, text = output) before its next reply.
ZH_SCRIPT: list[tuple[str, str, str]] = [
    ("u", "小林", "大家下午好 👋"),
    ("a", "", "下午好！有什么需要帮忙的？"),
    ("u", "小林", "网关早上重启之后，bot 一直报 `unauthorized: gateway token mismatch`，消息全发不出去"),
    ("a", "", "先看一下网关日志。"),
    (
        "t",
        "journalctl -u openclaw-gateway --since '2 hours ago' | tail -n 5",
        (
            "Nov 26 09:58:11 ops-1 gateway[2211]: listening on 127.0.0.1:18789\n"
            "Nov 26 10:02:40 ops-1 gateway[2211]: ws connect rejected: unauthorized: gateway token mismatch\n"
            "Nov 26 10:02:41 ops-1 gateway[2211]: ws connect rejected: unauthorized: gateway token mismatch"
        ),
    ),
    ("a", "", "日志里每次 ws 连接都被拒绝，原因是 token 不匹配。网关本身是正常启动的。"),
    ("u", "阿杰", "会不会是服务器时间不对？上次证书过期也是这种感觉"),
    ("a", "", "有可能，我查一下时钟。"),
    (
        "t",
        "timedatectl | grep -E 'Local time|synchronized'",
        "               Local time: Thu 2026-11-26 14:06:02 CST\nSystem clock synchronized: yes",
    ),
    ("a", "", "时钟是同步的，偏差为 0，不是时间问题。"),
    ("u", "阿杰", "好吧，那我猜错了 😂"),
    ("a", "", "没关系，先排除一个方向也有用。"),
    (
        "u",
        "小林",
        "我贴一下客户端那边的报错：\n```\n[ws] connecting to ws://127.0.0.1:18789\n[ws] closed 1008: unauthorized: gateway token mismatch\n[ws] retry in 5s\n```",
    ),
    ("a", "", "客户端用的 token 和网关进程里的不一致。看一下两边的配置来源。"),
    (
        "t",
        "grep -n token ~/.openclaw/gateway.cmd; systemctl show openclaw-gateway -p Environment",
        "3:  --token oc_live_7f3a...old\nEnvironment=OPENCLAW_GATEWAY_TOKEN=oc_live_91bd...new",
    ),
    (
        "a",
        "",
        (
            "找到了：`gateway.cmd` 里还是旧 token（oc_live_7f3a…），而 systemd 的环境变量 "
            "`OPENCLAW_GATEWAY_TOKEN` 已经是新 token。重启后网关读了 gateway.cmd 的旧值，客户端用的是新值。"
        ),
    ),
    ("u", "小林", "啊，上周轮换 token 的时候只改了环境变量，忘了 gateway.cmd"),
    ("u", "阿杰", "那把 gateway.cmd 也改成新的？"),
    ("a", "", "对。把 `gateway.cmd` 里的 `--token` 改成新值，然后 `openclaw gateway restart`。"),
    ("u", "小林", "改好了，重启中……"),
    ("t", "openclaw gateway status", "gateway: running (pid 2390), clients: 3 connected, auth: ok"),
    ("a", "", "网关已运行，3 个客户端连接成功，auth 正常。"),
    ("u", "小林", "消息能发了！确认修好了 ✅"),
    ("u", "阿杰", "根因就是 token 轮换只改了一半"),
    (
        "a",
        "",
        (
            "总结：根因是轮换 token 时只更新了 `OPENCLAW_GATEWAY_TOKEN`，没更新 `gateway.cmd`；"
            "修复是同步更新 gateway.cmd 后重启网关。"
        ),
    ),
    (
        "u",
        "小林",
        "以后轮换网关 token 时，gateway.cmd 和 OPENCLAW_GATEWAY_TOKEN 必须一起改，改完跑 openclaw gateway status 确认 auth: ok",
    ),
    ("a", "", "好的，记下了这条规则。"),
    ("u", "阿杰", "要不要顺便写个脚本自动检查两边一致？"),
    ("a", "", "可以之后再做，先记成待办。"),
    ("u", "阿杰", "行，那今天先这样"),
    ("u", "小林", "辛苦了，晚点请大家喝奶茶 🧋"),
    ("a", "", "谢谢！有问题随时叫我。"),
    ("u", "阿杰", "👍"),
    ("u", "小林", "对了，明天周会几点？"),
    ("u", "阿杰", "还是上午十点，老地方"),
    ("a", "", "收到，明天上午十点周会。"),
]

EN_SCRIPT: list[tuple[str, str, str]] = [
    ("u", "Sam", "morning all ☕"),
    ("a", "", "Good morning! What's up?"),
    ("u", "Sam", "We keep asking the same deploy questions, let's settle the convention for the web app"),
    ("a", "", "Sure. What do you have in mind?"),
    (
        "u",
        "Maya",
        "Deploys to production only Tuesday and Thursday, before 15:00 local time. No Friday deploys.",
    ),
    ("u", "Sam", "Agreed. And every deploy needs a green CI run on main plus one reviewer approval."),
    (
        "a",
        "",
        "Got it: production deploys Tue/Thu before 15:00, never Friday, green CI on main and one approval.",
    ),
    ("u", "Sam", "Where does the staging config live again?"),
    ("a", "", "Let me check the staging host."),
    (
        "t",
        "ssh staging-1 'ls /etc/acme && ss -ltnp | grep 8443'",
        'staging.yaml\nsecrets.env\nLISTEN 0 511 0.0.0.0:8443 0.0.0.0:* users:(("acme-web",pid=812))',
    ),
    ("a", "", "Staging config is `/etc/acme/staging.yaml` and the app listens on port 8443 on staging-1."),
    ("u", "Maya", "Right, 8443 for staging. Prod is behind the load balancer on 443."),
    ("u", "Sam", "btw who owns the billing service now that Leo moved teams?"),
    ("u", "Maya", "I do. Maya owns billing-service from this week, including on-call."),
    ("a", "", "Noted: Maya owns billing-service, including on-call."),
    ("u", "Sam", "And rollbacks?"),
    (
        "u",
        "Maya",
        "Rollback = redeploy the previous tag with `make deploy TAG=<previous>`, never hotfix on the box.",
    ),
    (
        "a",
        "",
        "Rollback rule: redeploy the previous tag via `make deploy TAG=<previous>`; no hotfixes on servers.",
    ),
    ("u", "Sam", "Did anyone see the game last night? 😅"),
    ("u", "Maya", "Don't remind me"),
    ("u", "Sam", "haha ok. Also, can you check if CI is green right now?"),
    ("t", "gh run list --branch main --limit 1", "completed  success  CI  main  push  12m ago"),
    ("a", "", "Latest CI run on main succeeded 12 minutes ago."),
    ("u", "Sam", "Cool. Maybe we deploy tomorrow then"),
    ("u", "Maya", "Tomorrow is Friday 🙃"),
    ("u", "Sam", "lol right, Tuesday then"),
    ("a", "", "Tuesday it is, before 15:00."),
    (
        "u",
        "Maya",
        "Let's also remember: announce every prod deploy in #releases with the tag and the changelog link.",
    ),
    ("a", "", "Added: announce each production deploy in #releases with tag and changelog link."),
    ("u", "Sam", "Perfect, thanks!"),
    ("a", "", "You're welcome."),
    ("u", "Maya", "lunch?"),
    ("u", "Sam", "5 min"),
    ("u", "Maya", "I'll grab a table"),
    ("a", "", "Enjoy your lunch!"),
]

MEMORY_FILE = """# 2026-11-26

## 09:12 - Deploy conventions
- Every production deploy needs a green CI run on main.

## 11:40 - 周会安排
- 周会每周四上午十点，在三楼会议室。
"""

MEMBERS = {"小林": "5550001", "阿杰": "5550002", "Sam": "5550003", "Maya": "5550004"}


def _iso(moment: datetime) -> str:
    return moment.astimezone(ZoneInfo("UTC")).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _user_content(who: str, text: str, moment: datetime, thread: str, message_id: int) -> str:
    stamp = moment.strftime("%a %Y-%m-%d %H:%M") + " GMT+8"
    conversation = {
        "message_id": str(message_id),
        "sender_id": MEMBERS[who],
        "conversation_label": f"{GROUP_TITLE} id:{CHAT_ID} topic:{thread}",
        "sender": who,
        "timestamp": stamp,
        "group_subject": GROUP_TITLE,
        "is_forum": True,
        "topic_id": thread,
    }
    sender = {"label": f"{who} ({MEMBERS[who]})", "id": MEMBERS[who], "name": who}
    return (
        "Conversation info (untrusted metadata):\n```json\n"
        + json.dumps(conversation, ensure_ascii=False, indent=2)
        + "\n```\n\nSender (untrusted metadata):\n```json\n"
        + json.dumps(sender, ensure_ascii=False, indent=2)
        + f"\n```\n\n[{stamp}] {text}"
    )


def transcript_lines(
    session_id: str, script: list[tuple[str, str, str]], start: datetime, thread: str
) -> list[str]:
    entries: list[dict[str, object]] = []
    counter = 0
    parent: str | None = None
    moment = start

    def add(kind: str, **body: object) -> None:
        nonlocal counter, parent
        counter += 1
        entry_id = f"{int(thread):02x}{counter:06x}"
        entries.append({"type": kind, "id": entry_id, "parentId": parent, "timestamp": _iso(moment), **body})
        parent = entry_id

    add("model_change", provider="anthropic", modelId="claude-sonnet-4-5")
    add("thinking_level_change", thinkingLevel="low")
    millis = lambda: int(moment.timestamp() * 1000)
    pending_call = 0
    for index, (kind, who, text) in enumerate(script):
        moment += timedelta(seconds=37 + (index * 53) % 140)
        if kind == "u":
            content = _user_content(who, text, moment, thread, 1000 * int(thread) + index)
            add("message", message={"role": "user", "content": content, "timestamp": millis()})
        elif kind == "a":
            blocks: list[dict[str, object]] = [{"type": "text", "text": text}]
            if pending_call:
                blocks.insert(
                    0,
                    {"type": "thinking", "thinking": "The tool output answers it.", "thinkingSignature": ""},
                )
                pending_call = 0
            add(
                "message",
                message={
                    "role": "assistant",
                    "content": blocks,
                    "api": "anthropic-messages",
                    "provider": "anthropic",
                    "model": "claude-sonnet-4-5",
                    "stopReason": "stop",
                    "timestamp": millis(),
                },
            )
        else:
            pending_call += 1
            call_id = f"toolu_{thread}_{index:03d}"
            add(
                "message",
                message={
                    "role": "assistant",
                    "content": [
                        {"type": "toolCall", "id": call_id, "name": "exec", "arguments": {"command": who}}
                    ],
                    "api": "anthropic-messages",
                    "provider": "anthropic",
                    "model": "claude-sonnet-4-5",
                    "stopReason": "toolUse",
                    "timestamp": millis(),
                },
            )
            moment += timedelta(seconds=2)
            add(
                "message",
                message={
                    "role": "toolResult",
                    "toolCallId": call_id,
                    "toolName": "exec",
                    "content": [{"type": "text", "text": text}],
                    "isError": False,
                    "timestamp": millis(),
                },
            )
    header = {
        "type": "session",
        "version": 3,
        "id": session_id,
        "timestamp": _iso(start),
        "cwd": "/home/ops/.openclaw/workspace",
    }
    return [json.dumps(line, ensure_ascii=False) for line in [header, *entries]]


def _entry(
    session_id: str, thread: str, updated: datetime, started: datetime, topic_title: str
) -> dict[str, object]:
    to = f"telegram:{CHAT_ID}"
    return {
        "sessionId": session_id,
        "updatedAt": int(updated.timestamp() * 1000),
        "sessionStartedAt": int(started.timestamp() * 1000),
        "sessionFile": f"{session_id}-topic-{thread}.jsonl",
        "chatType": "group",
        "channel": "telegram",
        "groupId": CHAT_ID,
        "subject": GROUP_TITLE,
        "displayName": f"telegram:g-acme-ops:{topic_title}",
        "lastChannel": "telegram",
        "lastTo": to,
        "lastThreadId": int(thread),
        "deliveryContext": {"channel": "telegram", "to": to, "accountId": "default", "threadId": int(thread)},
        "origin": {
            "label": f"{GROUP_TITLE} id:{CHAT_ID} topic:{thread}",
            "provider": "telegram",
            "surface": "telegram",
            "chatType": "group",
            "from": f"telegram:group:{CHAT_ID}:topic:{thread}",
            "to": to,
            "accountId": "default",
            "threadId": int(thread),
        },
        "modelProvider": "anthropic",
        "model": "claude-sonnet-4-5",
        "systemSent": True,
        "compactionCount": 0,
    }


TOPICS = [
    {
        "thread_id": ZH_THREAD,
        "title": "网关排障",
        "session_id": "5b0f6c1e-2d7a-4c1b-9a57-0e8d3f4a1101",
        "script": ZH_SCRIPT,
        "start": datetime(2026, 11, 26, 14, 0, tzinfo=TZ),
    },
    {
        "thread_id": EN_THREAD,
        "title": "Deploy conventions",
        "session_id": "8c2e4a9d-61f3-4e0b-b2c4-7d5a9e3b2202",
        "script": EN_SCRIPT,
        "start": datetime(2026, 11, 26, 16, 10, tzinfo=TZ),
    },
]


def build() -> dict[str, str]:
    """Relative path → file content of everything generated under demo_data/."""
    files: dict[str, str] = {}
    store: dict[str, object] = {}
    for topic in TOPICS:
        thread, session_id = str(topic["thread_id"]), str(topic["session_id"])
        lines = transcript_lines(session_id, topic["script"], topic["start"], thread)  # type: ignore[arg-type]
        last = datetime.fromisoformat(json.loads(lines[-1])["timestamp"])
        files[f"sessions/{session_id}-topic-{thread}.jsonl"] = "\n".join(lines) + "\n"
        key = f"agent:main:telegram:group:{CHAT_ID}:topic:{thread}"
        store[key] = _entry(session_id, thread, last, topic["start"], str(topic["title"]))  # type: ignore[arg-type]
    files["sessions/sessions.json"] = json.dumps(store, ensure_ascii=False, indent=2) + "\n"
    meta = {
        "chat_id": CHAT_ID,
        "timezone": "Asia/Shanghai",
        "now": NOW,
        "topics": [{"thread_id": t["thread_id"], "title": t["title"]} for t in TOPICS],
    }
    files["workspace/memory/2026-11-26.md"] = MEMORY_FILE
    files["demo.json"] = json.dumps(meta, ensure_ascii=False, indent=2) + "\n"
    return files


def write(folder: Path = DEMO_DIR) -> None:
    for relative, content in build().items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


if __name__ == "__main__":
    write()
    print(f"wrote {DEMO_DIR}")
