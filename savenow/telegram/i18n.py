"""The bot's own words, in English and Chinese.

Refusals from the service carry their own two messages (``SaveNowError.message(lang)``);
this module holds only what the Telegram layer itself says. Every string is
plain text: the handlers escape it before sending it as HTML.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["en", "zh"]

_STRINGS: dict[str, dict[Lang, str]] = {
    "button_apply": {"en": "✅ Apply", "zh": "✅ 应用"},
    "button_cancel": {"en": "❌ Cancel", "zh": "❌ 取消"},
    "not_allowed": {
        "en": "Sorry, savenow is not enabled for you in this chat.",
        "zh": "抱歉，savenow 没有在这个聊天中为你启用。",
    },
    "not_your_preview": {
        "en": "Only the person who asked for this preview can press its buttons.",
        "zh": "只有发起这个预览的人可以按这些按钮。",
    },
    "working": {"en": "Working on it…", "zh": "正在处理…"},
    "busy": {"en": "Already working on it…", "zh": "已在处理中…"},
    "applied": {
        "en": "✅ Saved to {path}: {added} added, {merged} merged, {skipped} skipped.",
        "zh": "✅ 已写入 {path}：新增 {added} 条，合并 {merged} 条，跳过 {skipped} 条。",
    },
    "applied_created": {"en": " (new file)", "zh": "（新文件）"},
    "nothing_written": {
        "en": "Nothing new to write to {path}: everything is already there.",
        "zh": "{path} 中已有这些内容，没有需要写入的新内容。",
    },
    "already_applied": {
        "en": "This preview was already applied; nothing written again.",
        "zh": "这个预览已经应用过，没有重复写入。",
    },
    "cancelled": {"en": "❌ Cancelled. Nothing was written.", "zh": "❌ 已取消，没有写入任何内容。"},
    "nothing_to_cancel": {"en": "There is no pending preview here.", "zh": "这里没有待确认的预览。"},
    "expired": {
        "en": "⌛ This preview has expired; nothing was written. Run /savenow again.",
        "zh": "⌛ 这个预览已过期，没有写入任何内容。请重新运行 /savenow。",
    },
    "gone": {
        "en": "This preview is no longer pending; nothing was written.",
        "zh": "这个预览已不再待确认，没有写入任何内容。",
    },
    "internal_error": {
        "en": "Something went wrong; nothing was written. The error has been logged.",
        "zh": "出错了，没有写入任何内容。错误已记录到日志。",
    },
    "shortened": {
        "en": "The preview is long: it is shortened here, and the full diff is in the attached file.",
        "zh": "预览太长，这里只显示开头，完整的差异见附件。",
    },
    "full_preview_caption": {"en": "Full /savenow preview", "zh": "完整的 /savenow 预览"},
    "list_header": {"en": "Sessions for this chat:", "zh": "本聊天的会话："},
    "list_empty": {
        "en": "No sessions found for this chat or topic. Run /savenow <sessionKey> with an explicit key.",
        "zh": "没有找到本聊天或话题的会话。可以用 /savenow <sessionKey> 指定会话键。",
    },
    "list_line": {
        "en": "{marker} {key} — {messages} messages, updated {updated} ({source})",
        "zh": "{marker} {key} — {messages} 条消息，更新于 {updated}（{source}）",
    },
    "list_footer": {
        "en": "▶ marks the session /savenow uses. Another one: /savenow <sessionKey>",
        "zh": "▶ 标记的是 /savenow 会使用的会话。使用其他会话：/savenow <sessionKey>",
    },
    "unknown_time": {"en": "unknown", "zh": "未知"},
    "command_description": {
        "en": "Save this conversation's durable notes to today's memory (preview first)",
        "zh": "把本次对话中值得长期保存的要点写入今天的记忆（先预览）",
    },
}


def pick_language(setting: str, telegram_language_code: str | None) -> Lang:
    """``telegram.language`` wins unless it is ``auto``; then the user's Telegram language."""
    if setting in ("en", "zh"):
        return setting  # type: ignore[return-value]
    return "zh" if (telegram_language_code or "").lower().startswith("zh") else "en"


def text(name: str, lang: Lang, /, **values: object) -> str:
    return _STRINGS[name][lang].format(**values)
