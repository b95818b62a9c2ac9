"""Placement by the values a note holds, with two candidate sections each (issue 12, session 14):

* a new identifier of a saved one's series ("v0.9.3" beside "v0.9.2", "db-2" beside "db-1") goes
  under that section, not under the section the chat is about;
* a number counting the same thing as a saved bullet's ("88,000 words" beside "97,000 words",
  "30 张" beside "20 张") updates that bullet;
* a note introducing a new thing ("新增赡养老人…", "New gym membership…") is added even when it shares a
  unit with a saved bullet about something else; one naming the saved bullet's own thing is a change.
"""

from __future__ import annotations

from savenow.extract.heuristic.placement import _changes_bullet, _siblings
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

RELEASES = MemorySection(
    "Lanternfall releases",
    ("Releases are git tags; CI builds on tag push.", "v0.9.2 went to the Steam beta branch on 2026-11-25."),
)
SERVER = MemorySection(
    "Lanternfall server", ("Dedicated server default port 27015 (UDP).", "Windows depot 3318441.")
)


def _only(entries: list, word: str):
    notes = [n for n in saved(entries) if word in text_of(n)]
    assert len(notes) == 1, [(n.title, n.bullets, n.action) for n in saved(entries)]
    return notes[0]


def test_the_next_release_goes_under_releases_not_the_server_the_chat_is_about_en() -> None:
    messages = chat(
        "u: the dedicated server crashed again after the update, port 27015 was still bound",
        "a: The old server process kept the port. Kill it before starting the new build.",
        "u: ok that worked, the server is back up on 27015",
        "u: and we shipped the fix already, tag is v0.9.3",
        "a: Noted: tag is v0.9.3.",
    )
    note = _only(extract(messages, [RELEASES, SERVER]), "v0.9.3")
    assert (note.action, note.merge_target_title) == ("merge", "Lanternfall releases")


DATABASE = MemorySection("MySQL 主库", ("db-1，MySQL 8.0，端口 3306。",))
ALERTS = MemorySection("监控告警", ("Grafana 在 grafana.int:3000，告警发到飞书群。",))


def test_a_second_host_of_a_series_goes_under_its_section_zh() -> None:
    messages = chat(
        "u: 监控告警那边 grafana.int:3000 的面板又多了几个",
        "a: 好的，要把哪些告警发到飞书群？",
        "u: 都发。另外新上了一台从库 db-2，记一下",
        "a: 记下了：从库 db-2。",
    )
    note = _only(extract(messages, [ALERTS, DATABASE]), "db-2")
    assert (note.action, note.merge_target_title) == ("merge", "MySQL 主库")


def test_what_counts_as_one_more_of_a_series() -> None:
    assert _siblings(frozenset({"v0.9.3"}), frozenset({"v0.9.2"}))
    assert _siblings(frozenset({"gpu-02"}), frozenset({"gpu-01", "27015"}))
    assert not _siblings(frozenset({"27016"}), frozenset({"27015"}))  # bare numbers all look alike
    assert not _siblings(frozenset({"10.0.0.2"}), frozenset({"10.0.0.1"}))  # … and so do addresses
    assert not _siblings(frozenset({"2026-12-01"}), frozenset({"2026-11-25"}))  # … and dates


MANUSCRIPT = MemorySection(
    "Manuscript: The Salt Ledger",
    (
        "Historical fiction set in 1780s Liverpool; current draft 97,000 words.",
        "Beta readers: Imogen and Dev.",
    ),
)
NEWSLETTER = MemorySection("Newsletter", ("Buttondown, goes out the first Friday of every month.",))


def test_a_new_word_count_updates_the_manuscript_en() -> None:
    messages = chat(
        "u: my agent called, she thinks the book is too long",
        "a: What length did she suggest?",
        "u: she wants it shorter. Target length 88,000 words.",
        "a: Noted: target length 88,000 words.",
    )
    note = _only(extract(messages, [NEWSLETTER, MANUSCRIPT]), "88,000")
    assert (note.action, note.merge_target_title) == ("merge", "Manuscript: The Salt Ledger")


def test_a_count_of_the_same_thing_is_a_change_zh() -> None:
    assert _changes_bullet("新卡改成每天 30 张。", ["单词卡每天 20 张新卡。"])
    assert not _changes_bullet("新卡改成每天 30 张。", ["单词卡每天 20 分钟复习。"])  # another thing counted
    assert not _changes_bullet("2027 年开始每天复习。", ["2025 年开始每天复习。"])  # a year is no count
    assert _changes_bullet("Target length 88,000 words.", ["Current draft 97,000 words."])
    assert not _changes_bullet("Target length 88,000 words.", ["Current draft 97,000 copies."])


DEDUCTIONS = MemorySection(
    "子女教育扣除", ("女儿 2025 年 9 月上小学，子女教育扣除每月 2000 元，我和老婆各 50%。",)
)
TAX_APP = MemorySection("个税 App 账号", ("个人所得税 App 用手机号登录，已完成实名认证。",))


def test_a_new_deduction_is_added_beside_the_one_it_shares_a_unit_with_zh() -> None:
    messages = chat(
        "u: 今年的个税专项附加扣除要重新填",
        "a: 有哪些变化？",
        "u: 新增赡养老人，独生子女，每月 3000 元，从 2027 年 1 月开始",
        "a: 记下了：新增赡养老人，独生子女，每月 3000 元，从 2027 年 1 月开始。",
        "u: 对",
    )
    note = _only(extract(messages, [TAX_APP, DEDUCTIONS]), "赡养老人")
    assert note.action == "add"


TAX_DEDUCTIONS = MemorySection(
    "Tax deductions", ("Childcare deduction for our daughter: 2000 EUR per year, split 50/50.",)
)
TAX_LOGIN = MemorySection("Tax app login", ("Logged in with the phone number, identity verified.",))


def _deduction_note(line: str):
    messages = chat(
        "u: redoing the tax deductions for next year", "a: What changes?", f"u: {line} Please remember that."
    )
    return _only(extract(messages, [TAX_LOGIN, TAX_DEDUCTIONS]), "2027")


def test_a_new_allowance_is_added_and_a_new_amount_of_the_saved_one_is_a_change_en() -> None:
    # Both share the saved bullet's "EUR per year"; only the second names the saved bullet's thing.
    assert (
        _deduction_note("New elderly parent allowance, 3000 EUR per year from January 2027.").action == "add"
    )
    note = _deduction_note("New childcare deduction for our daughter, 2500 EUR per year from January 2027.")
    assert (note.action, note.merge_target_title) == ("merge", "Tax deductions")
