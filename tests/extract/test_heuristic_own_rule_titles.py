"""A rule the user set and then reports applied ("设了", "done") is the user's own rule, not an
assistant's fix; and a title never falls back to a bare kind word ("配置", "Fix"): a short bullet
says the fact better than an empty label."""

from __future__ import annotations

from savenow.extract.heuristic.titles import title_faults
from tests.extract.support import chat, extract, saved


def test_the_users_own_rule_applied_is_no_fix_and_gets_no_kind_word_title_zh() -> None:
    messages = chat(
        "u: 还有我给自己定了个规矩 每天至少 1500 字 周日休息",
        "a: 好的，每天 1500 字、周日休息。要不要在 Scrivener 里设 Session Target？",
        "u: 设了 Project Targets 里 session 1500 words",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert notes[0].title not in {"修复", "配置", "规则"}
    assert "1500" in notes[0].title + " ".join(notes[0].bullets)


def test_a_title_is_never_a_bare_kind_word_en() -> None:
    messages = chat(
        "u: my rule from now on: 500 words a day, Sundays off",
        "a: Got it: 500 words a day, Sundays off. Want a target in Scrivener?",
        "u: set it, session target 500 words",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert notes[0].title.casefold() not in {"fix", "setup", "rule", "note"}
    assert not {"title"} & set(title_faults(notes[0].title, notes[0].bullets, "en"))
