"""What the objects feature says to a user, in English and Chinese (plain text; adapters escape)."""

from __future__ import annotations

from typing import Literal

Lang = Literal["en", "zh"]

_STRINGS: dict[str, dict[str, str]] = {
    "button_apply": {"en": "✅ Apply", "zh": "✅ 应用"},
    "button_cancel": {"en": "❌ Cancel", "zh": "❌ 取消"},
    "button_forget": {"en": "🗑 Forget", "zh": "🗑 忘掉"},
    "proposal_header": {"en": "Memory objects from this conversation — nothing written yet:",
                        "zh": "从这段对话中整理出的记忆对象——尚未写入："},
    "nothing_to_keep": {"en": "Nothing in this conversation is worth keeping as a memory object.",
                        "zh": "这段对话中没有值得长期保存的记忆对象。"},
    "op_create": {"en": "NEW", "zh": "新建"},
    "op_update": {"en": "UPDATE", "zh": "更新"},
    "op_skip": {"en": "SKIP", "zh": "跳过"},
    "near_match": {"en": "update {stored}? (you said “{variant}”)", "zh": "更新「{stored}」？（你说的是「{variant}」）"},
    "expires": {"en": "Buttons expire in {minutes} min.", "zh": "按钮 {minutes} 分钟后失效。"},
    "applied": {"en": "✅ Saved: {created} new, {updated} updated, {skipped} unchanged.",
                "zh": "✅ 已保存：新建 {created} 个，更新 {updated} 个，未变 {skipped} 个。"},
    "already_applied": {"en": "Already applied; nothing written again.", "zh": "已经应用过，没有重复写入。"},
    "cancelled": {"en": "❌ Cancelled. Nothing was written.", "zh": "❌ 已取消，没有写入任何内容。"},
    "list_empty": {"en": "No memory objects yet.", "zh": "还没有任何记忆对象。"},
    "list_header": {"en": "Memory objects ({count}):", "zh": "记忆对象（共 {count} 个）："},
    "found_none": {"en": "No memory object matches “{query}”.", "zh": "没有与「{query}」匹配的记忆对象。"},
    "found_header": {"en": "Memory objects matching “{query}”:", "zh": "与「{query}」匹配的记忆对象："},
    "forget_confirm": {"en": "Forget “{label}”? It moves to the trash and will not be re-created from old chats.",
                       "zh": "要忘掉「{label}」吗？它会被移到回收站，以后不会从旧对话中再被记起。"},
    "forgotten": {"en": "🗑 Forgot “{label}”. /memory undo brings it back.",
                  "zh": "🗑 已忘掉「{label}」。/memory undo 可以恢复。"},
    "undone": {"en": "↩️ Undid the last memory change ({op}).", "zh": "↩️ 已撤销最后一次记忆修改（{op}）。"},
    "usage": {"en": "Usage: /memory, /memory <query>, /memory forget <name>, /memory undo",
              "zh": "用法：/memory、/memory <关键词>、/memory forget <名称>、/memory undo"},
}  # fmt: skip


def text(key: str, lang: str = "en", **values: object) -> str:
    table = _STRINGS[key]
    template = table["zh"] if lang.startswith("zh") else table["en"]
    return template.format(**values)
