"""Every sentence savenow says to a person, keyed, in English and Chinese.

    from savenow.messages import text, Text
    text("access.not_trusted", "zh", user_id=42)       # a rendered line
    raise SessionNotFoundError(Text("session.not_found", key=k))   # an error that carries both languages

Keys are ``area.what``. Values are ``str.format`` templates; every value is plain
text (the Telegram layer escapes before sending HTML). Chat messages never hold
backticks or CLI commands: where a sentence differs between the chat and the
command line the catalog has two keys (``….chat`` / ``….cli``).

The preview Markdown's English strings are DESIGN §6 byte for byte (the skill's
scripts compare them); the Chinese ones follow the same layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Lang = Literal["en", "zh"]
LANGUAGES: tuple[Lang, ...] = ("en", "zh")

CATALOG: dict[str, dict[Lang, str]] = {
    # -- access (DESIGN §3.1) ------------------------------------------------------------------
    "access.not_trusted": {
        "en": "savenow does not know you yet, so it read nothing and wrote nothing.\n"
        "Your Telegram user id is {user_id}. To allow yourself, put this in the savenow config file:\n"
        "telegram:\n  allowed_user_ids: [{user_id}]\n"
        "or set the environment variable SAVENOW_TELEGRAM__ALLOWED_USER_IDS='[{user_id}]' "
        "(admin_user_ids takes the same form and also allows every session), then restart the bot.",
        "zh": "savenow 还不认识你，所以没有读取也没有写入任何内容。\n"
        "你的 Telegram 用户 id 是 {user_id}。要允许自己使用，请在 savenow 配置文件中写入：\n"
        "telegram:\n  allowed_user_ids: [{user_id}]\n"
        "或设置环境变量 SAVENOW_TELEGRAM__ALLOWED_USER_IDS='[{user_id}]'"
        "（admin_user_ids 写法相同，并且可以使用所有会话），然后重启机器人。",
    },
    "access.user_not_allowed": {
        "en": "Sorry, savenow is not enabled for you in this chat (your Telegram user id is {user_id}; "
        "the bot's owner can add it to telegram.allowed_user_ids).",
        "zh": "抱歉，savenow 没有在这个聊天中为你启用（你的 Telegram 用户 id 是 {user_id}；"
        "机器人的主人可以把它加入 telegram.allowed_user_ids）。",
    },
    "access.chat_not_allowed": {
        "en": "Sorry, savenow is not enabled in this chat (chat id {chat_id}; the bot's owner can add it "
        "to telegram.allowed_chat_ids).",
        "zh": "抱歉，savenow 没有在这个聊天中启用（聊天 id {chat_id}；机器人的主人可以把它加入 "
        "telegram.allowed_chat_ids）。",
    },
    "access.key_other_chat": {
        "en": "The session {key} does not belong to this chat, so it cannot be read here. "
        "Send /savenow list to see this chat's sessions.",
        "zh": "会话 {key} 不属于这个聊天，不能在这里读取。发送 /savenow list 查看本聊天的会话。",
    },
    "access.main_admin_only": {
        "en": "The agent's main session is the owner's: only an admin (telegram.admin_user_ids) may use it. "
        "Your own direct session here is {own_key}.",
        "zh": "智能体的主会话属于主人：只有管理员（telegram.admin_user_ids）可以使用。你在这里自己的私聊会话是 {own_key}。",
    },
    "access.not_your_preview": {
        "en": "Only the person who asked for this preview (or an admin) can apply or cancel it.",
        "zh": "只有发起这个预览的人（或管理员）可以应用或取消它。",
    },
    "access.not_your_write": {
        "en": "Only the person who asked for the last write (or an admin) can undo it.",
        "zh": "只有发起最后一次写入的人（或管理员）可以撤销它。",
    },
    # -- sessions (DESIGN §3) ------------------------------------------------------------------
    "session.how_to_pick": {
        "en": "Send /savenow list to see this chat's sessions, then /savenow <sessionKey> to preview one, "
        "e.g. /savenow {example}",
        "zh": "发送 /savenow list 查看本聊天的会话，再用 /savenow <sessionKey> 预览其中一个，例如 /savenow {example}",
    },
    "session.refusal": {"en": "{reason} {how}", "zh": "{reason}{how}"},
    "session.none_for_topic": {
        "en": "No session with a user message was found for this topic (chat {chat_id}, thread {thread_id}).",
        "zh": "没有找到这个话题（聊天 {chat_id}，话题 {thread_id}）中含有用户消息的会话。",
    },
    "session.none_for_group": {
        "en": "This message is not in a forum topic, and no session with a user message was found for "
        "the group itself (chat {chat_id}).",
        "zh": "这条消息不在论坛话题里，也没有找到这个群本身（聊天 {chat_id}）含有用户消息的会话。",
    },
    "session.none_for_chat": {
        "en": "No session with a user message was found for {where}.",
        "zh": "没有找到{where}中含有用户消息的会话。",
    },
    "session.this_chat": {"en": "this chat", "zh": "本聊天"},
    "session.chat_n": {"en": "chat {chat_id}", "zh": "聊天 {chat_id}"},
    "session.not_found": {
        "en": "No session has the key {key!r}. Send /savenow list to see the keys of this chat's sessions.",
        "zh": "没有会话键为 {key!r} 的会话。发送 /savenow list 查看本聊天的会话键。",
    },
    "session.no_store": {
        "en": "No session store found in {where}. Point --sessions-dir (SAVENOW_SESSIONS_DIR) at OpenClaw's "
        "sessions folder, e.g. ~/.openclaw/agents/main/sessions, or let the bot record chats first.",
        "zh": "在 {where} 中没有找到会话存储。请用 --sessions-dir（SAVENOW_SESSIONS_DIR）指向 OpenClaw 的会话目录，"
        "例如 ~/.openclaw/agents/main/sessions，或先让机器人记录聊天。",
    },
    "session.scan_stopped": {
        "en": "Reading the transcript stopped early: its last part is too large or not a conversation.",
        "zh": "对话记录的末尾过大或不是对话，读取已提前停止。",
    },
    "preview.redacted": {
        "en": "🔒 {count} secret-looking string(s) (API keys, tokens) were redacted before this preview.",
        "zh": "🔒 已隐去 {count} 处疑似密钥（API key、令牌）。",
    },
    "session.malformed_lines": {
        "en": "{count} malformed transcript line(s) were skipped.",
        "zh": "跳过了 {count} 行格式错误的对话记录。",
    },
    "session.key_not_text": {"en": "session key must be text", "zh": "会话键必须是文本"},
    "session.key_empty": {"en": "session key is empty", "zh": "会话键为空"},
    "session.key_too_long": {
        "en": "session key is too long ({length} characters, at most {limit})",
        "zh": "会话键太长（{length} 个字符，最多 {limit}）",
    },
    "session.key_control": {
        "en": "session key {shown} contains control characters or spaces",
        "zh": "会话键 {shown} 含有控制字符或空格",
    },
    "session.key_path": {
        "en": "{shown} looks like a path, not a session key (e.g. agent:main:telegram:group:-100123:topic:42)",
        "zh": "{shown} 看起来像路径，不是会话键（例如 agent:main:telegram:group:-100123:topic:42）",
    },
    # -- configuration and start-up ------------------------------------------------------------
    "config.cannot_read": {
        "en": "config file {path}: cannot read ({reason})",
        "zh": "配置文件 {path} 无法读取（{reason}）",
    },
    "config.no_workspace": {
        "en": "workspace {workspace} does not exist (--workspace / SAVENOW_WORKSPACE); nothing was created",
        "zh": "工作区 {workspace} 不存在（--workspace / SAVENOW_WORKSPACE）；未创建任何内容",
    },
    "config.not_utf8": {
        "en": "config file {path}: not UTF-8 text",
        "zh": "配置文件 {path} 不是 UTF-8 文本",
    },
    "config.bad_yaml": {
        "en": "config file {path}: not valid YAML ({reason})",
        "zh": "配置文件 {path} 不是合法的 YAML（{reason}）",
    },
    "config.not_mapping": {
        "en": "config file {path}: must be a mapping of keys",
        "zh": "配置文件 {path} 必须是键值映射",
    },
    "config.not_found": {"en": "config file {path}: not found", "zh": "找不到配置文件 {path}"},
    "config.bad_value": {
        "en": "config: {key} ({source}): {message}",
        "zh": "配置项 {key}（来自 {source}）无效：{message}",
    },
    "bot.no_token": {
        "en": "telegram.token is not set: get one from @BotFather and set SAVENOW_TELEGRAM__TOKEN "
        "or telegram.token in the config file",
        "zh": "未设置 telegram.token：请向 @BotFather 申请令牌，并设置 SAVENOW_TELEGRAM__TOKEN 或配置文件中的 telegram.token",
    },
    "bot.no_workspace": {
        "en": "workspace {path} does not exist: create it or set SAVENOW_WORKSPACE / --workspace",
        "zh": "工作区 {path} 不存在：请创建它，或设置 SAVENOW_WORKSPACE / --workspace",
    },
    "bot.bad_webhook_url": {
        "en": "telegram.webhook_url must be an https:// URL (Telegram only posts to https), not {url!r}",
        "zh": "telegram.webhook_url 必须是 https:// 地址（Telegram 只向 https 推送），而不是 {url!r}",
    },
    "bot.bad_webhook_secret": {
        "en": "telegram.webhook_secret_token must be 1-256 characters of A-Z, a-z, 0-9, _ and -",
        "zh": "telegram.webhook_secret_token 必须是 1-256 个字符，只能包含 A-Z、a-z、0-9、_ 和 -",
    },
    "bot.token_rejected": {
        "en": "telegram.token was rejected by the Bot API (401/404): check the token from @BotFather",
        "zh": "Bot API 拒绝了 telegram.token（401/404）：请检查 @BotFather 给出的令牌",
    },
    "bot.unreachable": {
        "en": "cannot reach the Bot API at {url}: {reason}",
        "zh": "无法连接 Bot API {url}：{reason}",
    },
    # -- previews, apply, cancel, undo (service) -------------------------------------------------
    "pending.replaced": {
        "en": "This preview was replaced by a newer one; use the latest preview's buttons.",
        "zh": "这个预览已被更新的预览取代，请使用最新预览的按钮。",
    },
    "pending.already_applied_cancel.chat": {
        "en": "That preview was already applied, so there is nothing to cancel; /savenow undo takes the "
        "write out again.",
        "zh": "这个预览已经应用，没有可取消的内容；可用 /savenow undo 撤销那次写入。",
    },
    "pending.already_applied_cancel.cli": {
        "en": "That preview was already applied, so there is nothing to cancel; `savenow undo` takes the "
        "write out again.",
        "zh": "这个预览已经应用，没有可取消的内容；可用 `savenow undo` 撤销那次写入。",
    },
    "write.forbidden_target": {
        "en": "Refusing to write {path}: savenow only writes {memory_dir}/YYYY-MM-DD.md.",
        "zh": "拒绝写入 {path}：savenow 只写 {memory_dir}/YYYY-MM-DD.md。",
    },
    # -- the command line ------------------------------------------------------------------------
    "cli.bad_id_flag": {
        "en": "{flag} must be a Telegram numeric id, not {value!r}",
        "zh": "{flag} 必须是 Telegram 数字 id，而不是 {value!r}",
    },
    "cli.bad_date": {
        "en": "--date must be YYYY-MM-DD, not {value!r}",
        "zh": "--date 必须是 YYYY-MM-DD，而不是 {value!r}",
    },
    "cli.applied_then_undone": {
        "en": "This preview was applied ({when}) and `savenow undo` took that write out since; nothing written. "
        "Run preview again to write it.",
        "zh": "这个预览已在 {when} 应用，之后被 `savenow undo` 撤销；本次没有写入。如需写入，请重新预览。",
    },
    "cli.already_applied_at": {
        "en": "Already applied at {when} to {path}: nothing written again.",
        "zh": "已于 {when} 应用到 {path}：没有重复写入。",
    },
    "cli.already_applied": {
        "en": "Already applied: nothing written again.",
        "zh": "已经应用过：没有重复写入。",
    },
    "cli.nothing_new": {"en": "Nothing new to write to {path}.", "zh": "{path} 没有需要写入的新内容。"},
    "cli.wrote": {
        "en": "Wrote {path}{created}: {added} added, {merged} merged, {skipped} skipped.",
        "zh": "已写入 {path}{created}：新增 {added} 条，合并 {merged} 条，跳过 {skipped} 条。",
    },
    "cli.new_file": {"en": " (new file)", "zh": "（新文件）"},
    "cli.cancelled": {
        "en": "Cancelled the pending preview of {key}. Nothing written.",
        "zh": "已取消 {key} 的待确认预览，没有写入任何内容。",
    },
    "cli.no_sessions": {
        "en": "No candidate sessions for this chat/topic.",
        "zh": "本聊天/话题没有候选会话。",
    },
    "cli.list_line": {
        "en": "{marker} {key}  (updated {updated}, {messages} messages, {source})",
        "zh": "{marker} {key}  （更新于 {updated}，{messages} 条消息，{source}）",
    },
    "cli.list_workspace": {
        "en": "workspace: {workspace} ({source})",
        "zh": "工作区：{workspace}（{source}）",
    },
    "cli.list_timezone": {
        "en": "time zone: {zone} ({source})",
        "zh": "时区：{zone}（{source}）",
    },
    "cli.host_local": {"en": "host local", "zh": "本机时区"},
    "cli.list_footer": {
        "en": "* = the session savenow uses for this scope; `savenow preview <SESSION_KEY>` picks another.",
        "zh": "* = savenow 在这个范围使用的会话；`savenow preview <SESSION_KEY>` 选择其他会话。",
    },
    "cli.undone": {
        "en": "Undid the last write to {path}: removed {lines} lines.",
        "zh": "已撤销对 {path} 的最后一次写入：删除了 {lines} 行。",
    },
    "cli.error": {"en": "savenow: {message}", "zh": "savenow：{message}"},
    # -- the preview Markdown (DESIGN §6) --------------------------------------------------------
    "preview.header": {"en": "### /savenow preview — {label}", "zh": "### /savenow 预览 — {label}"},
    "preview.zero": {
        "en": "**0 candidates** — nothing durable in this session. No write performed.",
        "zh": "**0 条候选** — 这段会话中没有值得长期保存的内容。未写入任何内容。",
    },
    "preview.summary_one": {
        "en": "**{total} candidate** → {add} add, {merge} merge, {skip} skip. No write performed.",
        "zh": "**{total} 条候选** → 新增 {add}，合并 {merge}，跳过 {skip}。未写入任何内容。",
    },
    "preview.summary_many": {
        "en": "**{total} candidates** → {add} add, {merge} merge, {skip} skip. No write performed.",
        "zh": "**{total} 条候选** → 新增 {add}，合并 {merge}，跳过 {skip}。未写入任何内容。",
    },
    "preview.footer.skill": {
        "en": "Buttons expire in {ttl} min. Or `/savenow auto` next time to skip preview.",
        "zh": "按钮 {ttl} 分钟后失效。下次也可以用 `/savenow auto` 跳过预览。",
    },
    "preview.footer.chat": {
        "en": "Buttons expire in {ttl} min. Or /savenow auto next time to skip preview.",
        "zh": "按钮 {ttl} 分钟后失效。下次也可以用 /savenow auto 跳过预览。",
    },
    "preview.footer.cli": {
        "en": "Run `savenow apply` within {ttl} min to write it, or `savenow cancel` to drop it.",
        "zh": "请在 {ttl} 分钟内运行 `savenow apply` 写入，或用 `savenow cancel` 放弃。",
    },
    "preview.footer.all_skip": {
        "en": "Nothing new to save: every candidate is already in today's memory. Nothing to apply.",
        "zh": "没有新内容需要保存：每条候选都已在今天的记忆中。无需应用。",
    },
    "preview.add": {"en": "**{n}. ADD — {title}**", "zh": "**{n}. 新增 — {title}**"},
    "preview.fallback": {
        "en": "**{n}. MERGE → ADD (fallback) — {title}**",
        "zh": "**{n}. 合并 → 新增（回退）— {title}**",
    },
    "preview.fallback_disallowed": {
        "en": '_target_: "{target}" — merging is turned off — will add as new section._',
        "zh": '_目标_："{target}" — 合并已关闭 — 将作为新段落添加。_',
    },
    "preview.fallback_missing": {
        "en": '_target_: "{target}" not found in today\'s memory — will add as new section._',
        "zh": '_目标_："{target}" 不在今天的记忆中 — 将作为新段落添加。_',
    },
    "preview.empty_target": {"en": "(empty)", "zh": "（空）"},
    "preview.compared": {"en": "_compared against:_ {matches}", "zh": "_对比对象：_ {matches}"},
    "preview.compared_none": {
        "en": "_compared against:_ (no close match above {threshold})",
        "zh": "_对比对象：_ （没有相似度高于 {threshold} 的段落）",
    },
    "preview.match": {"en": '"{title}"{at} — sim {sim}', "zh": '"{title}"{at} — 相似度 {sim}'},
    "preview.merge": {
        "en": '**{n}. MERGE — {title} → existing "{target}"{at}**',
        "zh": '**{n}. 合并 — {title} → 已有的 "{target}"{at}**',
    },
    "preview.closest_target": {
        "en": '_target "{target}" matched to the closest heading — title sim {sim}_',
        "zh": '_目标 "{target}" 匹配到最接近的标题 — 标题相似度 {sim}_',
    },
    "preview.new_bullets": {"en": "new bullets:", "zh": "新要点："},
    "preview.duplicates_one": {
        "en": "_({count} duplicate bullet will be skipped by script)_",
        "zh": "_（{count} 条重复要点将被跳过）_",
    },
    "preview.duplicates_many": {
        "en": "_({count} duplicate bullets will be skipped by script)_",
        "zh": "_（{count} 条重复要点将被跳过）_",
    },
    "preview.skip": {"en": "**{n}. SKIP — {title}**", "zh": "**{n}. 跳过 — {title}**"},
    "preview.reason": {"en": "_reason: {reason}_", "zh": "_理由：{reason}_"},
    "preview.all_present": {
        "en": "_all {count} bullet(s) already present in existing {target} — nothing to merge._",
        "zh": "_全部 {count} 条要点已在 {target} 中 — 无需合并。_",
    },
    "preview.empty_entry": {
        "en": "_(nothing left once punctuation and symbols are removed — will not be added)_",
        "zh": "_（去掉标点和符号后没有内容 — 不会添加）_",
    },
    "preview.duplicate_skip": {
        "en": '_(closest existing: "{title}" — {sims} — {verdict}, will not be added)_',
        "zh": '_（最接近的已有段落："{title}" — {sims} — {verdict}，不会添加）_',
    },
    "preview.title_sim": {"en": "title sim {sim}", "zh": "标题相似度 {sim}"},
    "preview.content_sim": {"en": ", content sim {sim}", "zh": "，内容相似度 {sim}"},
    "preview.verdict_bullets": {"en": "all bullets already saved", "zh": "所有要点都已保存"},
    "preview.verdict_saved": {"en": "already saved", "zh": "已保存"},
    "preview.judgement_skip": {
        "en": "_(closest existing: none — agent skipped on judgement)_",
        "zh": "_（没有相近的已有段落 — 按判断跳过）_",
    },
    "preview.closest": {
        "en": '_(closest existing: "{title}" — title sim {sim})_',
        "zh": '_（最接近的已有段落："{title}" — 标题相似度 {sim}）_',
    },
    "preview.dropped": {"en": '_dropped: "{title}" — {reason}_', "zh": '_已丢弃："{title}" — {reason}_'},
    # -- the bot's own words -------------------------------------------------------------------
    "bot.button_apply": {"en": "✅ Apply", "zh": "✅ 应用"},
    "bot.button_cancel": {"en": "❌ Cancel", "zh": "❌ 取消"},
    "bot.working": {"en": "Working on it…", "zh": "正在处理…"},
    "bot.topic_busy": {
        "en": "A /savenow is already running in this topic; its answer comes first. Try again after it.",
        "zh": "这个话题里已有一个 /savenow 正在运行，请等它回复后再试。",
    },
    "bot.queue_full": {
        "en": "savenow is busy with many requests right now; nothing was read or written. Try again in a minute.",
        "zh": "savenow 现在请求太多，没有读取也没有写入任何内容。请一分钟后再试。",
    },
    "bot.cooldown": {
        "en": "Please wait {seconds} s before the next /savenow.",
        "zh": "请等 {seconds} 秒再发送下一个 /savenow。",
    },
    "bot.saved": {
        "en": "✅ Saved to {path}: {added} added, {merged} merged, {skipped} skipped.",
        "zh": "✅ 已写入 {path}：新增 {added} 条，合并 {merged} 条，跳过 {skipped} 条。",
    },
    "bot.saved_titles": {"en": "Saved: {titles}", "zh": "已保存：{titles}"},
    "bot.new_file": {"en": " (new file)", "zh": "（新文件）"},
    "bot.nothing_written": {
        "en": "Nothing new to write to {path}: everything is already there.",
        "zh": "{path} 中已有这些内容，没有需要写入的新内容。",
    },
    "bot.already_applied": {
        "en": "This preview was already applied; nothing written again.",
        "zh": "这个预览已经应用过，没有重复写入。",
    },
    "bot.cancelled": {"en": "❌ Cancelled. Nothing was written.", "zh": "❌ 已取消，没有写入任何内容。"},
    "bot.nothing_to_cancel": {"en": "There is no pending preview here.", "zh": "这里没有待确认的预览。"},
    "bot.expired": {
        "en": "⌛ This preview has expired; nothing was written. Send /savenow again.",
        "zh": "⌛ 这个预览已过期，没有写入任何内容。请重新发送 /savenow。",
    },
    "bot.expired_status": {
        "en": "⌛ Expired after {ttl} min; nothing was written. Send /savenow again.",
        "zh": "⌛ {ttl} 分钟后已过期，没有写入任何内容。请重新发送 /savenow。",
    },
    "bot.replaced": {
        "en": "↪ Replaced by a newer preview; nothing was written from this one.",
        "zh": "↪ 已被更新的预览取代，这个预览没有写入任何内容。",
    },
    "bot.gone": {
        "en": "This preview is no longer pending; nothing was written.",
        "zh": "这个预览已不再待确认，没有写入任何内容。",
    },
    "bot.internal_error": {
        "en": "Something went wrong; nothing was written. The error has been logged.",
        "zh": "出错了，没有写入任何内容。错误已记录到日志。",
    },
    "bot.shortened": {
        "en": "The preview is long: it is shortened here, and the full diff is in the attached file.",
        "zh": "预览太长，这里只显示开头，完整的差异见附件。",
    },
    "bot.full_preview_caption": {"en": "Full /savenow preview", "zh": "完整的 /savenow 预览"},
    "bot.list_header": {"en": "Sessions for this chat:", "zh": "本聊天的会话："},
    "bot.list_empty": {
        "en": "No sessions found for this chat or topic yet: the bot records a chat's messages once it is "
        "allowed there. This chat's own key is {key} (copy it: /savenow {key}).",
        "zh": "还没有找到本聊天或话题的会话：机器人被允许后才会记录聊天消息。本聊天自己的会话键是 {key}"
        "（可复制：/savenow {key}）。",
    },
    "bot.list_line": {
        "en": "{marker} {key} — {messages} messages, updated {updated} ({source})",
        "zh": "{marker} {key} — {messages} 条消息，更新于 {updated}（{source}）",
    },
    "bot.list_footer": {
        "en": "▶ marks the session /savenow uses. Another one: /savenow <sessionKey>",
        "zh": "▶ 标记的是 /savenow 会使用的会话。使用其他会话：/savenow <sessionKey>",
    },
    "bot.unknown_time": {"en": "unknown", "zh": "未知"},
    "bot.undone": {
        "en": "↩ Undid the last write to {path}: removed {lines} lines.",
        "zh": "↩ 已撤销对 {path} 的最后一次写入：删除了 {lines} 行。",
    },
    "bot.command_description": {
        "en": "Save this conversation's durable notes to today's memory (preview first)",
        "zh": "把本次对话中值得长期保存的要点写入今天的记忆（先预览）",
    },
    "bot.help": {
        "en": "savenow keeps what matters from this conversation in today's memory file, with a preview first.\n"
        "/savenow — preview the notes from this topic's conversation (writes nothing)\n"
        "/savenow apply — write the pending preview (or press ✅ Apply)\n"
        "/savenow cancel — drop the pending preview (or press ❌ Cancel)\n"
        "/savenow auto — extract and write at once, no preview\n"
        "/savenow list — the sessions of this chat, with keys to copy\n"
        "/savenow <sessionKey> — preview one of this chat's sessions by its key\n"
        "/savenow undo — take the last write out again (its requester or an admin)\n"
        "/recall <query> (or /savenow search <query>) — find notes in memory, with file:line and date\n"
        "/compact — compact this topic's session now (durable notes are saved first); /compact status — its size\n"
        "/memory — the memory objects; /memory <query> — find one; /memory forget <name> — forget one "
        "(asks first); /memory undo — take the last change back\n"
        "/savenow help — this text",
        "zh": "savenow 把这段对话中值得保存的内容写入今天的记忆文件，先预览再写入。\n"
        "/savenow — 预览本话题对话中的要点（不写入）\n"
        "/savenow apply — 写入待确认的预览（或按 ✅ 应用）\n"
        "/savenow cancel — 放弃待确认的预览（或按 ❌ 取消）\n"
        "/savenow auto — 直接提取并写入，不预览\n"
        "/savenow list — 本聊天的会话及可复制的会话键\n"
        "/savenow <sessionKey> — 按会话键预览本聊天的某个会话\n"
        "/savenow undo — 撤销最后一次写入（限发起者或管理员）\n"
        "/recall <关键词>（或 /savenow search <关键词>）— 在记忆中查找，附文件:行号和日期\n"
        "/compact — 立即压缩本话题的会话（先保存值得保留的要点）；/compact status — 查看会话大小\n"
        "/memory — 列出记忆对象；/memory <关键词> — 查找；/memory forget <名称> — 忘掉（先确认）；"
        "/memory undo — 撤销最后一次修改\n"
        "/savenow help — 显示本帮助",
    },
    "bot.describe_recall": {"en": "Find notes in memory", "zh": "在记忆中查找"},
    "bot.describe_compact": {
        "en": "Compact this topic's session (notes saved first)",
        "zh": "压缩本话题的会话（先保存要点）",
    },
    "bot.describe_memory": {"en": "List, find or forget memory objects", "zh": "列出、查找或忘掉记忆对象"},
    "bot.recall_unavailable": {
        "en": "Memory search is turned off in this bot's configuration (search.enabled).",
        "zh": "这个机器人的配置关闭了记忆搜索（search.enabled）。",
    },
    "bot.objects_expired": {
        "en": "⌛ Expired after {ttl} min; nothing was written.",
        "zh": "⌛ {ttl} 分钟后已过期，没有写入任何内容。",
    },
    # -- compaction in the chat (DESIGN §13) -----------------------------------------------------
    "compaction.status": {
        "en": "This session: {messages} messages, ~{tokens} tokens of {max_tokens}; compacted {count} times.",
        "zh": "当前会话：{messages} 条消息，约 {tokens} / {max_tokens} tokens；已压缩 {count} 次。",
    },
    "compaction.nothing": {
        "en": "Nothing to compact: no messages since the last compaction.",
        "zh": "没有可压缩的内容：上次压缩后没有新消息。",
    },
    "compaction.compacted": {
        "en": "Compacted this session: {removed} older messages are now a summary "
        "(~{before} → ~{after} tokens).",
        "zh": "已压缩本会话：较早的 {removed} 条消息合并为摘要（约 {before} → {after} tokens）。",
    },
    "compaction.flush_saved": {
        "en": "Saved to memory/{name} before compacting: {titles}. /savenow undo takes it out.",
        "zh": "压缩前已保存到 memory/{name}：{titles}。/savenow undo 可撤销。",
    },
    # -- memory objects in the chat (DESIGN §14) ---------------------------------------------------
    "objects.button_apply": {"en": "✅ Apply", "zh": "✅ 应用"},
    "objects.button_cancel": {"en": "❌ Cancel", "zh": "❌ 取消"},
    "objects.button_forget": {"en": "🗑 Forget", "zh": "🗑 忘掉"},
    "objects.proposal_header": {
        "en": "Memory objects from this conversation — nothing written yet:",
        "zh": "从这段对话中整理出的记忆对象——尚未写入：",
    },
    "objects.nothing_to_keep": {
        "en": "Nothing in this conversation is worth keeping as a memory object.",
        "zh": "这段对话中没有值得长期保存的记忆对象。",
    },
    "objects.op_create": {"en": "NEW", "zh": "新建"},
    "objects.op_update": {"en": "UPDATE", "zh": "更新"},
    "objects.op_skip": {"en": "SKIP", "zh": "跳过"},
    "objects.near_match": {
        "en": "update {stored}? (you said “{variant}”)",
        "zh": "更新「{stored}」？（你说的是「{variant}」）",
    },
    "objects.expires": {"en": "Buttons expire in {minutes} min.", "zh": "按钮 {minutes} 分钟后失效。"},
    "objects.applied": {
        "en": "✅ Saved: {created} new, {updated} updated, {skipped} unchanged.",
        "zh": "✅ 已保存：新建 {created} 个，更新 {updated} 个，未变 {skipped} 个。",
    },
    "objects.already_applied": {
        "en": "Already applied; nothing written again.",
        "zh": "已经应用过，没有重复写入。",
    },
    "objects.cancelled": {"en": "❌ Cancelled. Nothing was written.", "zh": "❌ 已取消，没有写入任何内容。"},
    "objects.list_empty": {"en": "No memory objects yet.", "zh": "还没有任何记忆对象。"},
    "objects.list_header": {"en": "Memory objects ({count}):", "zh": "记忆对象（共 {count} 个）："},
    "objects.found_none": {
        "en": "No memory object matches “{query}”.",
        "zh": "没有与「{query}」匹配的记忆对象。",
    },
    "objects.found_header": {
        "en": "Memory objects matching “{query}”:",
        "zh": "与「{query}」匹配的记忆对象：",
    },
    "objects.forget_confirm": {
        "en": "Forget “{label}”? It moves to the trash and will not be re-created from old chats.",
        "zh": "要忘掉「{label}」吗？它会被移到回收站，以后不会从旧对话中再被记起。",
    },
    "objects.forgotten": {
        "en": "🗑 Forgot “{label}”. /memory undo brings it back.",
        "zh": "🗑 已忘掉「{label}」。/memory undo 可以恢复。",
    },
    "objects.undone": {
        "en": "↩️ Undid the last memory change ({op}).",
        "zh": "↩️ 已撤销最后一次记忆修改（{op}）。",
    },
    "objects.usage": {
        "en": "Usage: /memory, /memory <query>, /memory forget <name>, /memory undo",
        "zh": "用法：/memory、/memory <关键词>、/memory forget <名称>、/memory undo",
    },
    "objects.not_found": {
        "en": "No memory object is called “{name}”; /memory lists them.",
        "zh": "没有名为「{name}」的记忆对象；/memory 可列出全部。",
    },
    "objects.not_your_buttons": {
        "en": "Only the person who asked for this (or an admin) can press its buttons.",
        "zh": "只有发起者（或管理员）可以按这些按钮。",
    },
    "objects.not_your_change": {
        "en": "Only the person who made the last memory-object change (or an admin) can undo it.",
        "zh": "只有做出最后一次记忆对象修改的人（或管理员）可以撤销它。",
    },
}


@dataclass(frozen=True)
class Text:
    """A catalog entry with its values: rendered in either language on demand."""

    key: str
    values: dict[str, object] = field(default_factory=dict)

    def __init__(self, key: str, /, **values: object) -> None:
        if key not in CATALOG:
            raise KeyError(f"no message {key!r} in the catalog")
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "values", values)

    def render(self, lang: str = "en") -> str:
        return text(self.key, lang, **self.values)


def text(key: str, lang: str = "en", /, **values: object) -> str:
    """The message ``key`` in ``lang`` (``zh…`` → Chinese, anything else English), filled in."""
    entry = CATALOG[key]
    template = entry["zh" if lang.startswith("zh") else "en"]
    rendered = {
        name: value.render(lang) if isinstance(value, Text) else value for name, value in values.items()
    }
    return template.format(**rendered)


def pick_language(setting: str | None, telegram_language_code: str | None) -> Lang:
    """A configured ``en``/``zh`` wins; ``auto`` (or nothing) follows the user's Telegram language."""
    if setting == "en":
        return "en"
    if setting == "zh":
        return "zh"
    return "zh" if (telegram_language_code or "").lower().startswith("zh") else "en"
