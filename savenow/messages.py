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

A value may carry its own words in each language (:class:`Localized`: a ``Text``, a
``ListOf``, a ``SaveNowError``); it is rendered in the message's language, so a reason
nested in a refusal is never English inside a Chinese sentence. Keys are grouped in blocks
by the module that says them; ``tests/test_message_catalog.py`` checks that every entry has
both languages with the same placeholders and that errors are built from the catalog.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

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
    "cli.compact_one_session": {
        "en": "name one session: --store FILE, a KEY, or --chat-id C --thread-id T",
        "zh": "只能指定一个会话：--store FILE、KEY 或 --chat-id C --thread-id T",
    },
    "cli.positive_number": {"en": "{flag} must be a positive number", "zh": "{flag} 必须是正数"},
    "cli.compact_store_missing": {"en": "session file {path} not found", "zh": "找不到会话文件 {path}"},
    "cli.search_empty_query": {"en": "search: the query is empty", "zh": "search：查询为空"},
    "cli.flag_range": {"en": "{flag} must be {low}..{high}", "zh": "{flag} 必须在 {low}..{high} 之间"},
    "cli.flag_at_least_one": {"en": "{flag} must be 1 or more", "zh": "{flag} 必须 ≥ 1"},
    "cli.search_disabled": {
        "en": "search is disabled (search.enabled: false in the configuration)",
        "zh": "搜索已关闭（配置中 search.enabled: false）",
    },
    "search.embedding_failed": {"en": "{reason}", "zh": "{reason}"},
    "dropins.bad_date": {
        "en": "--date must be YYYY-MM-DD, not {value}",
        "zh": "--date 必须是 YYYY-MM-DD，而不是 {value}",
    },
    "dropins.memory_path_is_folder": {
        "en": "--memory-path {path} is a folder, not a file",
        "zh": "--memory-path {path} 是文件夹，不是文件",
    },
    "dropins.entries_missing": {"en": "entries file not found: {path}", "zh": "找不到 entries 文件：{path}"},
    "dropins.bad_ttl": {
        "en": "--ttl-minutes must be between 1 and {high}, not {value}",
        "zh": "--ttl-minutes 必须在 1 到 {high} 之间，而不是 {value}",
    },
    "llm.fell_back_offline": {
        "en": "LLM failed ({reason}); used the offline extractor",
        "zh": "LLM 调用失败（{reason}），已改用离线提取",
    },
    "llm.messages_left_out": {
        "en": "The {count} oldest messages were left out to fit llm.max_prompt_tokens.",
        "zh": "为了不超过 llm.max_prompt_tokens，最早的 {count} 条消息没有发送。",
    },
    "llm.sections_left_out": {
        "en": "{count} memory sections least related to this chat were not sent to the LLM.",
        "zh": "与这段对话最不相关的 {count} 个记忆段落没有发送给 LLM。",
    },
    "journal.changed_meanwhile": {
        "en": "Another write or undo came in while checking; nothing was undone. Run undo again.",
        "zh": "检查期间有其他写入或撤销发生，本次未撤销任何内容，请再执行一次撤销。",
    },
    # -- CLI output lines (savenow/cli/objects.py, compaction.py, search.py, notes.py, main.py) ----
    "cli.objects_apply_hint": {
        "en": "`savenow objects apply` writes them; nothing is written until then.",
        "zh": "`savenow objects apply` 会写入它们；在此之前不会写入任何内容。",
    },
    "cli.objects_already_applied": {
        "en": "Already applied: nothing written again.",
        "zh": "已经应用过：没有再次写入。",
    },
    "cli.objects_cancelled": {
        "en": "Cancelled the pending memory-object preview. Nothing written.",
        "zh": "已取消待确认的记忆对象预览。没有写入任何内容。",
    },
    "cli.objects_none": {"en": "No memory objects yet.", "zh": "还没有记忆对象。"},
    "cli.objects_near_match": {
        "en": "near_match: {label!r} looks like stored {candidate!r} ({id}); nothing written. "
        'Use the stored name (with the variant in "aliases") to update it, or --new for a new one.',
        "zh": "near_match：{label!r} 与已存储的 {candidate!r}（{id}）相似；没有写入任何内容。"
        '要更新它，请使用已存储的名称（把这个变体写进 "aliases"）；要新建一个，请加 --new。',
    },
    "cli.objects_forgotten": {
        "en": "forgotten: {label!r} was forgotten; nothing written (--remember brings it back).",
        "zh": "forgotten：{label!r} 已被遗忘；没有写入任何内容（--remember 可以恢复它）。",
    },
    "cli.objects_forgot": {
        "en": "Forgot {label} ({id}); `savenow objects undo` restores it.",
        "zh": "已遗忘 {label}（{id}）；`savenow objects undo` 可以恢复它。",
    },
    "cli.objects_forgot_purged": {
        "en": "Forgot {label} ({id}) and deleted the trash copy.",
        "zh": "已遗忘 {label}（{id}），并删除了回收站副本。",
    },
    "cli.objects_undid": {
        "en": "Undid the last memory-object change ({undid}): {files}.",
        "zh": "已撤销最后一次记忆对象修改（{undid}）：{files}。",
    },
    "cli.objects_maintained": {
        "en": "Maintenance: {paused} paused, {archived} archived, {vanished} with vanished sources; "
        "{changed} file(s) changed.",
        "zh": "维护：{paused} 个已暂停，{archived} 个已归档，{vanished} 个来源已消失；修改了 {changed} 个文件。",
    },
    "cli.compact_no_history": {"en": "No compactions yet.", "zh": "还没有压缩记录。"},
    "cli.compact_history_line": {
        "en": "{at}  removed {removed}  {before} → {after} tokens",
        "zh": "{at}  移除 {removed} 条  {before} → {after} tokens",
    },
    "cli.compact_why_under_threshold": {
        "en": "under the threshold (~{tokens} tokens); --force compacts anyway",
        "zh": "未达到阈值（约 {tokens} tokens）；--force 可以强制压缩",
    },
    "cli.compact_why_nothing_new": {
        "en": "nothing new since the last compaction",
        "zh": "自上次压缩以来没有新内容",
    },
    "cli.compact_nothing": {
        "en": "Nothing compacted: {why}. No file changed.",
        "zh": "没有压缩：{why}。没有修改任何文件。",
    },
    "cli.compact_done": {
        "en": "Compacted: {removed} messages summarized, ~{before} → ~{after} tokens (compaction #{count}).",
        "zh": "已压缩：总结了 {removed} 条消息，约 {before} → 约 {after} tokens（第 {count} 次压缩）。",
    },
    "cli.compact_verdict_due": {"en": "compaction due", "zh": "需要压缩"},
    "cli.compact_verdict_under": {"en": "under the threshold", "zh": "未达到阈值"},
    "cli.compact_status": {
        "en": "{store}: {messages} messages, ~{tokens} tokens of {max_tokens} ({verdict}); "
        "compacted {count} times.",
        "zh": "{store}：{messages} 条消息，约 {tokens} / {max_tokens} tokens（{verdict}）；已压缩 {count} 次。",
    },
    "cli.compact_flush_written": {
        "en": "Memory flush: wrote {notes} to {path} (savenow undo).",
        "zh": "记忆保存：已把 {notes} 写入 {path}（savenow undo 可撤销）。",
    },
    "cli.compact_flush_nothing": {
        "en": "Memory flush: nothing durable in the removed messages.",
        "zh": "记忆保存：移除的消息中没有值得长期保存的内容。",
    },
    "cli.compact_checked": {
        "en": "compacted {label}: {removed} messages, flush {status}",
        "zh": "已压缩 {label}：{removed} 条消息，记忆保存 {status}",
    },
    "cli.search_no_match": {"en": "No matching memory.", "zh": "没有匹配的记忆。"},
    "cli.search_keyword_only": {
        "en": "(keyword search only: {message})",
        "zh": "（仅使用关键词搜索：{message}）",
    },
    "cli.undo_list_empty": {"en": "Nothing to undo.", "zh": "没有可撤销的内容。"},
    "cli.undo_list_line": {
        "en": "{number}. {time}  {path}  +{lines} lines  {titles}",
        "zh": "{number}. {time}  {path}  +{lines} 行  {titles}",
    },
    "cli.os_error": {
        "en": "savenow: {message}; no file was changed by this command",
        "zh": "savenow：{message}；这个命令没有修改任何文件",
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
    # -- pending previews (savenow/pending.py, savenow/applying.py) ------------------------------
    "pending.none": {
        "en": "No pending preview, run /savenow first.",
        "zh": "没有待确认的预览，请先运行 /savenow。",
    },
    "pending.scope_mismatch": {
        "en": "Pending preview is from a different topic. Rerun /savenow here.",
        "zh": "待确认的预览来自另一个话题。请在这里重新运行 /savenow。",
    },
    "pending.expired": {
        "en": "Preview expired ({minutes} min ago), rerun /savenow.",
        "zh": "预览已过期（{minutes} 分钟前），请重新运行 /savenow。",
    },
    "pending.no_workspace": {
        "en": "no workspace for the memory file's lock and journal",
        "zh": "缺少工作区",
    },
    "pending.not_a_pending": {
        "en": "refusing to touch {path}: it is not a savenow pending preview; nothing changed",
        "zh": "拒绝改动 {path}：它不是 savenow 的待确认预览；未做任何修改",
    },
    "pending.malformed": {
        "en": "pending preview is malformed: {detail}",
        "zh": "待确认的预览文件格式错误：{detail}",
    },
    "pending.malformed.time_not_string": {
        "en": "{what} must be an ISO-8601 time string",
        "zh": "{what} 必须是 ISO-8601 时间字符串",
    },
    "pending.malformed.time_invalid": {
        "en": "{what} is not an ISO-8601 time: {value!r}",
        "zh": "{what} 不是 ISO-8601 时间：{value!r}",
    },
    "pending.malformed.not_string": {"en": "{key} must be a string", "zh": "{key} 必须是字符串"},
    "pending.malformed.not_object": {"en": "expected a JSON object", "zh": "应为 JSON 对象"},
    "pending.malformed.memory_path_missing": {"en": "memoryPath is missing", "zh": "缺少 memoryPath"},
    "pending.malformed.entries_not_list": {"en": "entries must be a list", "zh": "entries 必须是列表"},
    "pending.malformed.bad_date": {
        "en": "date must be YYYY-MM-DD, not {day!r}",
        "zh": "date 必须是 YYYY-MM-DD，而不是 {day!r}",
    },
    "pending.malformed.bad_base": {
        "en": "baseSha256 must be a string or null",
        "zh": "baseSha256 必须是字符串或 null",
    },
    "pending.malformed.bad_version": {
        "en": "version must be a whole number, not {value!r}",
        "zh": "version 必须是整数，而不是 {value!r}",
    },
    "pending.malformed.unsupported_version": {
        "en": "version {number} is not supported (this savenow reads version {supported})",
        "zh": "不支持版本 {number}（这个 savenow 读取版本 {supported}）",
    },
    # -- shared pieces ---------------------------------------------------------------------------
    "common.list_separator": {"en": ", ", "zh": "、"},
    "common.message": {"en": "{message}", "zh": "{message}"},  # another error's words, as they are
    # -- clock (savenow/clock.py) ---------------------------------------------------------------
    "clock.unknown_timezone": {
        "en": "timezone: unknown time zone {name!r}",
        "zh": "timezone：未知时区 {name!r}",
    },
    "clock.now_not_iso": {
        "en": "{env}: not an ISO-8601 time: {value!r}",
        "zh": "{env}：不是 ISO-8601 时间：{value!r}",
    },
    "clock.now_year_out_of_range": {
        "en": "{env}: year {year} is outside 1970..9000: {value!r}",
        "zh": "{env}：年份 {year} 不在 1970..9000 之内：{value!r}",
    },
    "clock.now_unusable": {"en": "{env}: cannot use {value!r}", "zh": "{env}：无法使用 {value!r}"},
    # -- OpenClaw's config (savenow/openclaw_setup.py) -------------------------------------------
    "openclaw_setup.unknown_timezone": {
        "en": "{path}: {key} is not a known time zone ({name!r}); pass --timezone to override it",
        "zh": "{path}：{key} 不是已知时区（{name!r}）；可用 --timezone 覆盖",
    },
    "openclaw_setup.cannot_read": {
        "en": "{path}: cannot read ({reason})",
        "zh": "无法读取 {path}（{reason}）",
    },
    "openclaw_setup.bad_json5": {
        "en": "{path}: not valid JSON5 ({reason}); pass --workspace and --timezone to skip it",
        "zh": "{path} 不是合法的 JSON5（{reason}）；可用 --workspace 和 --timezone 跳过它",
    },
    "openclaw_setup.not_object": {"en": "{path}: must be an object", "zh": "{path} 必须是对象"},
    # -- entries (savenow/models.py) ------------------------------------------------------------
    "entries.not_string": {"en": "{what} must be a string", "zh": "{what} 必须是字符串"},
    "entries.too_long": {
        "en": "{what} is too long ({length} characters, at most {limit})",
        "zh": "{what} 太长（{length} 个字符，最多 {limit}）",
    },
    "entries.not_object": {"en": "{where} must be an object", "zh": "{where} 必须是对象"},
    "entries.bullets_not_list": {
        "en": "{where}.bullets must be a list of strings",
        "zh": "{where}.bullets 必须是字符串列表",
    },
    "entries.too_many_bullets": {
        "en": "{where}.bullets has {count} items, at most {limit}",
        "zh": "{where}.bullets 有 {count} 条，最多 {limit} 条",
    },
    "entries.bad_action": {
        "en": "{where}.action must be add, merge or skip, not {action!r}",
        "zh": "{where}.action 只能是 add、merge 或 skip，而不是 {action!r}",
    },
    "entries.not_array": {
        "en": "entries must be a JSON array of {{title, bullets, ...}} objects",
        "zh": "entries 必须是 {{title, bullets, ...}} 对象组成的 JSON 数组",
    },
    # -- OpenClaw's SQLite-era store (savenow/errors.py, savenow/sessions/sqlite_store.py) -------
    "sqlite_store.unsupported": {
        "en": "Cannot read OpenClaw's session database {path} ({found}): {why}. "
        "Point --sessions-dir at a sessions folder, or update savenow.",
        "zh": "无法读取 OpenClaw 的会话数据库 {path}（{found}）：{why}。请用 --sessions-dir 指向会话目录，或更新 savenow。",
    },
    "sqlite_store.schema": {"en": "schema {version}", "zh": "schema {version}"},
    "sqlite_store.no_schema": {"en": "no schema version", "zh": "没有 schema 版本"},
    "sqlite_store.no_session_tables": {
        "en": "it holds no session tables (sessions moved into SQLite at schema 8)",
        "zh": "其中没有会话表（会话从 schema 8 起才存入 SQLite）",
    },
    "sqlite_store.lacks": {"en": "it lacks {missing}", "zh": "缺少 {missing}"},
    "sqlite_store.unreadable": {
        "en": "Cannot read OpenClaw's session database {path}: {reason}.",
        "zh": "无法读取 OpenClaw 的会话数据库 {path}：{reason}。",
    },
    "sqlite_store.busy": {
        "en": "OpenClaw's session database {path} stayed locked for {seconds:g} s; try again in a moment.",
        "zh": "OpenClaw 的会话数据库 {path} 被锁定超过 {seconds:g} 秒，请稍后再试。",
    },
    # -- storage: files (savenow/storage/files.py) ----------------------------------------------
    "storage.never_memory_md": {
        "en": "refusing to write {path}: savenow never writes MEMORY.md, only memory/YYYY-MM-DD.md",
        "zh": "拒绝写入 {path}：savenow 从不写 MEMORY.md，只写 memory/YYYY-MM-DD.md",
    },
    "storage.is_folder": {"en": "{path} is a folder, not a file", "zh": "{path} 是文件夹，不是文件"},
    "storage.read_denied": {"en": "cannot read {path}: permission denied", "zh": "无法读取 {path}：没有权限"},
    "storage.not_regular": {
        "en": "{path} is not a regular file (a FIFO, socket or device); savenow does not read it",
        "zh": "{path} 不是普通文件（FIFO、套接字或设备）；savenow 不读取它",
    },
    "storage.too_large": {
        "en": "{path} is too large ({size} bytes, at most {limit}); savenow leaves it unchanged",
        "zh": "{path} 太大（{size} 字节，最多 {limit}）；savenow 不会修改它",
    },
    "storage.not_utf8": {
        "en": "{path} is not UTF-8 text (byte {byte}); savenow leaves it unchanged",
        "zh": "{path} 不是 UTF-8 文本（第 {byte} 字节）；savenow 不会修改它",
    },
    "storage.bad_json": {
        "en": "{what} {path} is not valid JSON ({detail})",
        "zh": "{what} {path} 不是合法的 JSON（{detail}）",
    },
    "storage.lone_surrogate": {
        "en": "refusing to write {path}: the text holds a lone UTF-16 surrogate (character {index})",
        "zh": "拒绝写入 {path}：文本中有孤立的 UTF-16 代理字符（第 {index} 个字符）",
    },
    "storage.failed": {
        "en": "cannot {action} {path}: {why}; the file is as it was",
        "zh": "无法{action} {path}：{why}；文件保持原样",
    },
    "storage.verb.read": {"en": "read", "zh": "读取"},
    "storage.verb.write": {"en": "write", "zh": "写入"},
    "storage.verb.delete": {"en": "delete", "zh": "删除"},
    "storage.why.disk_full": {"en": "the disk is full", "zh": "磁盘已满"},
    "storage.why.quota": {"en": "the disk quota is exceeded", "zh": "磁盘配额已用完"},
    "storage.why.read_only": {"en": "the file system is read-only", "zh": "文件系统是只读的"},
    "storage.why.permission": {"en": "permission denied", "zh": "没有权限"},
    "storage.why.not_permitted": {"en": "operation not permitted", "zh": "不允许的操作"},
    # -- storage: the journal and undo (savenow/storage/journal.py) -----------------------------
    "journal.nothing_recorded": {
        "en": "Nothing to undo: no savenow write is recorded in {journal}.",
        "zh": "没有可撤销的内容：{journal} 中没有 savenow 的写入记录。",
    },
    "journal.already_undone": {
        "en": "The last write to {path} was already undone, and no earlier write is left; nothing changed.",
        "zh": "对 {path} 的最后一次写入已经撤销过了，也没有更早的写入可撤销；未做任何修改。",
    },
    "journal.file_gone": {
        "en": "Cannot undo: {path} no longer exists; nothing changed.",
        "zh": "无法撤销：{path} 已不存在；未做任何修改。",
    },
    "journal.cannot_place_removed": {
        "en": "Cannot undo: the file changed since and a removed part cannot be placed again; nothing changed.",
        "zh": "无法撤销：文件之后被修改过，被删除的部分无法放回原处；未做任何修改。",
    },
    "journal.lines_edited": {
        "en": 'Cannot undo: the inserted lines (from "{sample}") were edited or removed since; nothing changed.',
        "zh": "无法撤销：插入的行（从“{sample}”开始）之后被修改或删除了；未做任何修改。",
    },
    "journal.lines_repeated": {
        "en": 'Cannot undo: the inserted lines (from "{sample}") now appear more than once; nothing changed.',
        "zh": "无法撤销：插入的行（从“{sample}”开始）现在出现了不止一次；未做任何修改。",
    },
    "journal.mismatch": {
        "en": "Cannot undo the last write to {path}: the journal does not match the file; nothing changed.",
        "zh": "无法撤销对 {path} 的最后一次写入：日志与文件不一致；未做任何修改。",
    },
    "journal.group_changed": {
        "en": "Cannot undo: {path} changed since that change; nothing changed.",
        "zh": "无法撤销：{path} 在那次修改之后被改动过；未做任何修改。",
    },
    "journal.copy_missing": {
        "en": "Cannot undo: the copy of {path} from before that change is gone; nothing changed.",
        "zh": "无法撤销：那次修改之前 {path} 的副本已不存在；未做任何修改。",
    },
    # -- storage: locks and write targets (savenow/storage/locks.py, targets.py) ----------------
    "locks.cannot_create": {
        "en": "cannot create the lock for {target} in {locks_dir}: {reason}; nothing changed",
        "zh": "无法在 {locks_dir} 中为 {target} 创建锁：{reason}；未做任何修改",
    },
    "locks.timeout": {
        "en": "{target} is locked by another savenow process; try again in a moment",
        "zh": "{target} 正被另一个 savenow 进程锁定，请稍后再试",
    },
    "targets.refused": {"en": "refusing to write {path}: {why}", "zh": "拒绝写入 {path}：{why}"},
    "targets.cannot_inspect": {"en": "cannot inspect it ({reason})", "zh": "无法检查它（{reason}）"},
    "targets.symlink": {"en": "it is a symbolic link", "zh": "它是符号链接"},
    "targets.not_regular": {"en": "it is not a regular file", "zh": "它不是普通文件"},
    "targets.read_only": {"en": "it is read-only", "zh": "它是只读的"},
    "targets.not_markdown": {"en": "a memory file must be a .md file", "zh": "记忆文件必须是 .md 文件"},
    "targets.outside": {"en": "it is outside {where}", "zh": "它不在 {where} 之内"},
    "targets.or": {"en": " or ", "zh": " 或 "},
    "targets.private_folder": {"en": "it is inside {folder}/", "zh": "它位于 {folder}/ 中"},
    "targets.state_is_json": {
        "en": "a {what} is JSON, never a Markdown file",
        "zh": "{what}是 JSON，绝不是 Markdown 文件",
    },
    "targets.state_is_other": {"en": "the {what} cannot be {other}", "zh": "{what}不能是 {other}"},
    "targets.pending_file": {"en": "pending file", "zh": "待确认的预览文件"},
    # -- the LLM client (savenow/llm/client.py) -------------------------------------------------
    "llm.rate_limited": {
        "en": "The LLM endpoint is rate-limited and asks to wait {wait:.0f} s",
        "zh": "LLM 接口限流，要求等待 {wait:.0f} 秒",
    },
    "llm.failed_times": {
        "en": "The LLM endpoint {where} failed {failures} times ({what})",
        "zh": "LLM 接口 {where} 连续失败 {failures} 次（{what}）",
    },
    "llm.why.no_answer": {"en": "no answer within {seconds:g} s", "zh": "{seconds:g} 秒内没有回答"},
    "llm.why.connection": {"en": "connection failed: {kind}", "zh": "连接失败：{kind}"},
    "llm.why.http": {"en": "HTTP {status}", "zh": "HTTP {status}"},
    "llm.bad_key": {
        "en": "The LLM endpoint {where} refused the API key (HTTP {status}); check llm.api_key.",
        "zh": "LLM 接口 {where} 拒绝了 API key（HTTP {status}），请检查 llm.api_key。",
    },
    "llm.not_found": {
        "en": "The LLM endpoint {where} or the model {model!r} was not found (HTTP 404); "
        "check llm.base_url and llm.model.",
        "zh": "找不到 LLM 接口 {where} 或模型 {model!r}（HTTP 404），请检查 llm.base_url 和 llm.model。",
    },
    "llm.rejected": {
        "en": "The LLM endpoint {where} rejected the request (HTTP {status}: {detail}).",
        "zh": "LLM 接口 {where} 拒绝了请求（HTTP {status}：{detail}）。",
    },
    "llm.no_details": {"en": "no details", "zh": "无详情"},
    "llm.too_large": {
        "en": "The LLM endpoint {where} sent an answer larger than {mib} MiB",
        "zh": "LLM 接口 {where} 返回的内容超过 {mib} MiB",
    },
    "llm.unusable": {
        "en": "The LLM endpoint {where} sent an unusable answer ({why})",
        "zh": "LLM 接口 {where} 返回的内容无法使用（{why}）",
    },
    "llm.why.embedding_count": {"en": "expected {expected} embeddings", "zh": "应有 {expected} 个向量"},
    "llm.why.embedding_not_numbers": {
        "en": "an embedding is not a list of numbers",
        "zh": "有一个向量不是数字列表",
    },
    "llm.why.embedding_lengths": {"en": "the embeddings differ in length", "zh": "向量的长度不一致"},
    # -- the LLM extractor (savenow/extract/llm.py) ---------------------------------------------
    "extract_llm.no_base_url": {
        "en": "extractor llm: llm.base_url is not set (SAVENOW_LLM__BASE_URL)",
        "zh": "LLM 提取器：未设置 llm.base_url（SAVENOW_LLM__BASE_URL）",
    },
    "extract_llm.no_model": {
        "en": "extractor llm: llm.model is not set (SAVENOW_LLM__MODEL)",
        "zh": "LLM 提取器：未设置 llm.model（SAVENOW_LLM__MODEL）",
    },
    "extract_llm.unusable_twice": {
        "en": "The LLM's answer was not usable twice ({problem}); nothing was written and no preview was stored.",
        "zh": "LLM 两次返回的内容都无法使用（{problem}），未写入任何内容，也没有生成预览。",
    },
    "extract_llm.not_written": {
        "en": "{error}; nothing was written. Try again later.",
        "zh": "{error}；未写入任何内容，请稍后再试。",
    },
    # -- OpenClaw's JSON session stores (savenow/sessions/openclaw.py) --------------------------
    "openclaw_store.symlink_outside": {
        "en": "refusing to read {transcript}: it is a symbolic link to {target}, outside {root}",
        "zh": "拒绝读取 {transcript}：它是指向 {root} 之外 {target} 的符号链接",
    },
    "openclaw_store.cannot_read": {
        "en": "cannot read session store {path}: {reason}",
        "zh": "无法读取会话存储 {path}：{reason}",
    },
    "openclaw_store.bad_json": {
        "en": "session store {path} is not valid JSON ({detail})",
        "zh": "会话存储 {path} 不是合法的 JSON（{detail}）",
    },
    "openclaw_store.not_a_map": {
        "en": "session store {path} must map session keys to entries",
        "zh": "会话存储 {path} 必须是「会话键 → 条目」的映射",
    },
    # -- compaction: session stores (savenow/compaction/stores.py, service.py) ------------------
    "compaction.cannot_read": {
        "en": "cannot read session file {path} ({reason})",
        "zh": "无法读取会话文件 {path}（{reason}）",
    },
    "compaction.not_found": {"en": "session file {path} not found", "zh": "找不到会话文件 {path}"},
    "compaction.bad_json": {
        "en": "session file {path} is not valid JSON ({detail})",
        "zh": "会话文件 {path} 不是合法的 JSON（{detail}）",
    },
    "compaction.no_messages": {
        "en": "session file {path} has no messages list",
        "zh": "会话文件 {path} 里没有 messages 列表",
    },
    "compaction.message_not_object": {
        "en": "session file {path}: message {index} is not an object",
        "zh": "会话文件 {path}：第 {index} 条消息不是对象",
    },
    "compaction.file_changed": {
        "en": "session file {path} changed while compacting; nothing written, run again",
        "zh": "压缩期间会话文件 {path} 被修改；未写入，请重试",
    },
    "compaction.bad_role": {
        "en": "session file {path}: message {index} has role {role!r} (user, assistant, system or tool)",
        "zh": "会话文件 {path}：第 {index} 条消息的 role {role!r} 无效",
    },
    "compaction.transcript_changed": {
        "en": "transcript of {key} changed while compacting; nothing written, run again",
        "zh": "压缩期间 {key} 的记录被修改；未写入，请重试",
    },
    "compaction.new_session": {
        "en": "{key} started a new session while compacting; nothing written, run again",
        "zh": "压缩期间 {key} 开始了新会话；未写入，请重试",
    },
    "compaction.transcript_not_found": {"en": "transcript {path} not found", "zh": "找不到会话记录 {path}"},
    # -- memory objects: input (savenow/objects/model.py) ---------------------------------------
    "objects.where.object": {"en": "object", "zh": "对象"},
    "objects.where.item": {"en": "object {number}", "zh": "对象 {number}"},
    "objects.where.pending": {"en": "pending object", "zh": "待确认的对象"},
    "objects.field_required": {"en": "{where}: `{name}` is required", "zh": "{where}：缺少必填字段 `{name}`"},
    "objects.field_not_string": {
        "en": "{where}: `{name}` must be a string",
        "zh": "{where}：`{name}` 必须是字符串",
    },
    "objects.field_too_long": {
        "en": "{where}: `{name}` is longer than {limit} characters",
        "zh": "{where}：`{name}` 超过 {limit} 字",
    },
    "objects.field_pathlike": {
        "en": "{where}: `{name}` {value!r} looks like a path or is not a one-line name",
        "zh": "{where}：`{name}` {value!r} 像路径或不是单行名称",
    },
    "objects.field_not_list": {
        "en": "{where}: `{name}` must be a list of strings",
        "zh": "{where}：`{name}` 必须是字符串列表",
    },
    "objects.item_too_long": {
        "en": "{where}: an item of `{name}` is too long",
        "zh": "{where}：`{name}` 中有条目过长",
    },
    "objects.bad_choice": {
        "en": "{where}: `{name}` must be one of {allowed}, not {value!r}",
        "zh": "{where}：`{name}` 只能是 {allowed}，而不是 {value!r}",
    },
    "objects.not_object": {"en": "{where}: expected a JSON object", "zh": "{where}：应为 JSON 对象"},
    "objects.unknown_type": {
        "en": "{where}: unknown type {kind!r}; use one of {types}",
        "zh": "{where}：未知类型 {kind!r}；只能是 {types}",
    },
    "objects.unknown_self_key": {
        "en": "{where}: self key {key!r} is not in the vocabulary ({keys})",
        "zh": "{where}：self 的 key {key!r} 不在固定词表中（{keys}）",
    },
    "objects.wrong_category": {
        "en": "{where}: self key {key!r} belongs to category {expected!r}, not {category!r}",
        "zh": "{where}：self 的 key {key!r} 属于类别 {expected!r}，不是 {category!r}",
    },
    "objects.bad_confidence": {
        "en": "{where}: `confidence` must be a number from 0 to 1",
        "zh": "{where}：`confidence` 必须是 0 到 1 的数",
    },
    "objects.bad_sources": {
        "en": "{where}: `source_refs` must be a list of objects",
        "zh": "{where}：`source_refs` 必须是对象列表",
    },
    "objects.none_given": {"en": "no objects given", "zh": "没有给出任何对象"},
    # -- memory objects: proposals and the store (savenow/objects/service.py, store.py) ---------
    "objects.no_pending": {
        "en": "No pending memory-object proposal in this topic; run `savenow objects extract` (or wait for the "
        "bot's proposal) first.",
        "zh": "这个话题里没有待确认的记忆对象提议；请先运行 `savenow objects extract`（或等待机器人的提议）。",
    },
    "objects.unknown_action": {"en": "unknown button action {action!r}", "zh": "未知的按钮操作 {action!r}"},
    "objects.file_missing": {"en": "{path} does not exist", "zh": "{path} 不存在"},
    "objects.bad_json": {
        "en": "{path} is not valid JSON ({detail})",
        "zh": "{path} 不是合法的 JSON（{detail}）",
    },
    "objects.not_found_for_purge": {
        "en": "No memory object or trash copy with id {ref!r}.",
        "zh": "没有 id 为 {ref!r} 的记忆对象或回收站副本。",
    },
    "objects.nothing_to_undo": {
        "en": "Nothing to undo: the last memory-object change was already undone, or there is none.",
        "zh": "没有可撤销的内容：最后一次记忆对象的修改已撤销，或者没有修改记录。",
    },
    "objects.cannot_undo_purge": {
        "en": "Cannot undo a purge: the forgotten object's text was deleted on purpose.",
        "zh": "无法撤销彻底删除：被遗忘对象的内容已按要求删除。",
    },
    "objects.undo_changed": {
        "en": "Cannot undo: {path} changed since the last change; nothing changed.",
        "zh": "无法撤销：{path} 在那之后被修改过；未做任何修改。",
    },
    "objects.undo_purged": {
        "en": "Cannot undo: the earlier version of {path} was purged.",
        "zh": "无法撤销：{path} 的旧版本已被彻底删除。",
    },
    # -- memory objects: what the feature says (savenow/objects/texts.py) ----------------------
    # -- memory search (savenow/search/access.py, reply.py) -------------------------------------
    "search.get_refused": {
        "en": "get {shown!r}: refused, {why} (only MEMORY.md, memory/**/*.md and search.extra_paths)",
        "zh": "拒绝读取 {shown!r}：{why}（只能读 MEMORY.md、memory/**/*.md 和 search.extra_paths）",
    },
    "search.why.not_a_path": {"en": "not a file path", "zh": "不是文件路径"},
    "search.why.not_markdown": {"en": "not a Markdown file", "zh": "不是 Markdown 文件"},
    "search.why.outside": {"en": "outside the memory files", "zh": "不在记忆文件范围内"},
    "search.recall.usage": {"en": "Usage: /recall <what to look for>", "zh": "用法：/recall <要找的内容>"},
    "search.recall.none": {
        "en": "Nothing in memory matches “{query}”.",
        "zh": "记忆里没有找到与“{query}”相关的内容。",
    },
    "search.recall.header": {"en": "Memory for “{query}”:", "zh": "关于“{query}”的记忆："},
    "search.recall.undated": {"en": "long-term", "zh": "长期记忆"},
    "search.recall.lexical": {
        "en": "(keyword search only: the embeddings provider failed)",
        "zh": "（仅关键词搜索：向量服务出错）",
    },
    # -- compaction: the service, the flush, /compact (savenow/compaction/service.py, flush.py) --
    "compaction.in_openclaw_folder": {
        "en": "{path} is in OpenClaw's sessions folder, which savenow never writes",
        "zh": "{path} 位于 OpenClaw 的会话目录，savenow 从不写入那里",
    },
    "compaction.openclaw_owned": {
        "en": "{key} lives in OpenClaw's own store, which savenow never writes (OpenClaw compacts it)",
        "zh": "{key} 属于 OpenClaw 自己的存储，savenow 从不写入（由 OpenClaw 自己压缩）",
    },
    "compaction.no_recorded_session": {
        "en": "no recorded session has the key {key!r}",
        "zh": "没有会话键为 {key!r} 的已记录会话",
    },
    "compaction.name_a_session": {
        "en": "name a session: --store FILE, a session KEY, or --chat-id C --thread-id T",
        "zh": "请指定会话：--store FILE、会话键 KEY，或 --chat-id C --thread-id T",
    },
    "compaction.done": {
        "en": "Compacted this session: {removed} older messages are now a summary (~{before} → ~{after} tokens).",
        "zh": "已压缩本会话：较早的 {removed} 条消息合并为摘要（约 {before} → {after} tokens）。",
    },
    "compaction.workspace_missing": {
        "en": "workspace {workspace} does not exist: memory flush skipped (compaction goes on)",
        "zh": "工作区 {workspace} 不存在：跳过记忆保存（压缩照常进行）",
    },
    "compaction.workspace_read_only": {
        "en": "workspace {workspace} is read-only: memory flush skipped (compaction goes on)",
        "zh": "工作区 {workspace} 只读：跳过记忆保存（压缩照常进行）",
    },
    "compaction.flush_failed": {
        "en": "memory flush failed ({reason}); it is retried at the next compaction",
        "zh": "记忆保存失败（{reason}）；下次压缩时会重试",
    },
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
    # -- -- the optional LLM paths: compaction summary, memory objects (issues 15, 16) ---------------------
    "compaction.llm_not_configured": {
        "en": "compaction.summarizer llm: set llm.base_url and llm.model (SAVENOW_LLM__BASE_URL, SAVENOW_LLM__MODEL)",
        "zh": "compaction.summarizer 为 llm：请设置 llm.base_url 和 llm.model（SAVENOW_LLM__BASE_URL、SAVENOW_LLM__MODEL）",
    },
    "compaction.llm_nothing_to_summarize": {
        "en": "the LLM summarizer was given no messages and no previous summary",
        "zh": "LLM 摘要没有收到任何消息，也没有之前的摘要",
    },
    "compaction.llm_nested": {
        "en": "the LLM nested the previous summary inside the new one instead of merging them",
        "zh": "LLM 把之前的摘要嵌套进了新摘要，而不是合并",
    },
    "compaction.llm_empty": {"en": "the LLM's summary is empty", "zh": "LLM 返回的摘要为空"},
    "compaction.summary_fallback": {
        "en": "The LLM summary failed ({reason}); the offline summary was used.",
        "zh": "LLM 摘要失败（{reason}），已改用离线摘要。",
    },
    "objects.llm_not_configured": {
        "en": "objects.extractor llm: set llm.base_url and llm.model (SAVENOW_LLM__BASE_URL, SAVENOW_LLM__MODEL)",
        "zh": "objects.extractor 为 llm：请设置 llm.base_url 和 llm.model（SAVENOW_LLM__BASE_URL、SAVENOW_LLM__MODEL）",
    },
    "objects.llm_failed": {
        "en": "{reason} No memory objects were proposed and nothing was written. Try again later.",
        "zh": "{reason}没有提出任何记忆对象，也没有写入任何内容，请稍后再试。",
    },
    "objects.llm_unusable": {
        "en": "The LLM's answer was not a usable upsert_memory list twice ({reason}); no memory objects were "
        "proposed and nothing was written.",
        "zh": "LLM 两次返回的内容都不是可用的 upsert_memory 列表（{reason}），没有提出任何记忆对象，也没有写入任何内容。",
    },
    "objects.llm_fallback": {
        "en": "The LLM object extractor failed ({reason}); the offline extractor was used.",
        "zh": "LLM 记忆对象提取失败（{reason}），已改用离线提取。",
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
    "objects.no_such_object": {
        "en": "No memory object with id or name {ref!r}; `savenow objects list` shows them.",
        "zh": "没有 id 或名称为 {ref!r} 的记忆对象；`savenow objects list` 可查看全部。",
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
    # -- labels inside other messages: where a setting came from, why something was dropped --------
    "config.source.flag": {"en": "command-line flag", "zh": "命令行参数"},
    "config.source.env": {"en": "environment variable {name}", "zh": "环境变量 {name}"},
    "config.source.file": {"en": "config file {path}", "zh": "配置文件 {path}"},
    "config.source.default": {"en": "default", "zh": "默认值"},
    "setup.from.savenow": {"en": "savenow settings", "zh": "savenow 设置"},
    "setup.from.openclaw_key": {"en": "openclaw.json {key}", "zh": "openclaw.json 的 {key}"},
    "setup.from.openclaw_default": {"en": "OpenClaw default", "zh": "OpenClaw 默认位置"},
    "setup.from.openclaw_default_many": {
        "en": "OpenClaw default for an agent of several",
        "zh": "OpenClaw 多代理时的默认位置",
    },
    "setup.from.host": {"en": "host", "zh": "本机"},
    "llm.dropped.over_limit": {"en": "over the {limit}-entry limit", "zh": "超过 {limit} 条的上限"},
    "llm.dropped.malformed": {
        "en": "malformed entry ({where}: {detail})",
        "zh": "条目格式不对（{where}：{detail}）",
    },
    "llm.dropped.empty": {"en": "no title or no bullets", "zh": "没有标题或没有要点"},
    "objects.dropped.not_object": {
        "en": "object {number}: not a JSON object",
        "zh": "第 {number} 个对象：不是 JSON 对象",
    },
    "objects.dropped.too_many": {
        "en": "{count} more objects ignored (over {limit})",
        "zh": "另有 {count} 个对象被忽略（超过 {limit} 个）",
    },
    "objects.dropped.forgotten": {"en": "{label}: forgotten", "zh": "{label}：已被遗忘"},
    "objects.dropped.over_cap": {
        "en": "{label}: over the cap of {cap}",
        "zh": "{label}：超过 {cap} 个的上限",
    },
    "search.fallback.no_provider": {
        "en": "no embeddings provider configured: keyword search only",
        "zh": "没有配置向量嵌入服务：只用关键词搜索",
    },
}


@runtime_checkable
class Localized(Protocol):
    """A value that has its own words in each language (a Text, a ListOf, an error's message)."""

    def render(self, lang: str = "en") -> str: ...


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


@dataclass(frozen=True)
class WithoutFullStop:
    """A message (a ``Text``, an error) in either language, its final full stop dropped to go on
    inside another sentence ("… failed (<message>); …")."""

    value: Localized

    def render(self, lang: str = "en") -> str:
        return self.value.render(lang).rstrip("。" if lang.startswith("zh") else ".")


@dataclass(frozen=True)
class ListOf:
    """A list of names as a value: ``a, b`` in English, ``a、b`` in Chinese (or another
    separator from the catalog, e.g. ``targets.or``)."""

    items: tuple[str, ...]
    separator: str = "common.list_separator"

    def __init__(self, items: Iterable[object], separator: str = "common.list_separator") -> None:
        if separator not in CATALOG:
            raise KeyError(f"no message {separator!r} in the catalog")
        object.__setattr__(self, "items", tuple(str(item) for item in items))
        object.__setattr__(self, "separator", separator)

    def render(self, lang: str = "en") -> str:
        return text(self.separator, lang).join(self.items)


def localize(value: str | Localized, lang: str = "en") -> str:
    """A value in ``lang``: a :class:`Localized` renders itself; a plain string (e.g. from a host's own
    extractor) is shown as it is."""
    return value if isinstance(value, str) else value.render(lang)


def text(key: str, lang: str = "en", /, **values: object) -> str:
    """The message ``key`` in ``lang`` (``zh…`` → Chinese, anything else English), filled in."""
    entry = CATALOG[key]
    template = entry["zh" if lang.startswith("zh") else "en"]
    rendered = {
        name: value.render(lang) if isinstance(value, Localized) else value for name, value in values.items()
    }
    return template.format(**rendered)


def pick_language(setting: str | None, telegram_language_code: str | None) -> Lang:
    """A configured ``en``/``zh`` wins; ``auto`` (or nothing) follows the user's Telegram language."""
    if setting == "en":
        return "en"
    if setting == "zh":
        return "zh"
    return "zh" if (telegram_language_code or "").lower().startswith("zh") else "en"
