"""Answer types (search/answers.py): a question's kind of value, in Chinese and in English.

Each workspace is written here, small and made up (not an evaluation set's notes).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from savenow.search import MemorySearch, SearchOptions, engine
from savenow.search.answers import asked_kinds, holds_kind
from savenow.search.tokenize import query_terms

from .conftest import TODAY, write_files


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("疫苗几号打", {"date"}),
        ("护照什么时候到期", {"date", "clock"}),
        ("when does the lease end", {"date", "clock"}),
        ("幼儿园早上几点之前要到", {"clock"}),
        ("what time is the pickup", {"clock"}),
        ("磨豆机花了多少钱", {"money"}),
        ("how much did the new kettle cost", {"money"}),
        ("how much is a scale and polish for a cat", {"money"}),
        ("how much memory is free on the nas", {"number"}),
        ("重试要等多久", {"duration"}),
        ("how long do the jobs wait", {"duration"}),
        ("备份保留几份", {"number"}),
        ("how many copies are kept", {"number"}),
        ("猫粮买的哪个牌子", set()),
        ("who repaired the heater", set()),
    ],
)
def test_a_question_says_what_kind_of_value_it_wants(query: str, kinds: set[str]) -> None:
    assert asked_kinds(query) == frozenset(kinds)


@pytest.mark.parametrize(
    ("text", "kind", "holds"),
    [
        ("- 疫苗 6 月 12 日上午打", "date", True),
        ("- lease runs to 2027-06-30", "date", True),
        ("- next check on Nov 15", "date", True),
        ("- 周三下午有游泳课", "date", True),
        ("- 疫苗本在抽屉里", "date", False),
        ("- 每天 16:40 结束", "clock", True),
        ("- 下午 4 点半接", "clock", True),
        ("## 09:40 - 周会\n- 讨论了排期", "clock", False),  # the heading's time is when it was written
        ("- 花了 3299 元", "money", True),
        ("- renewal: ¥699 annually", "money", True),
        ("- costs a lot", "money", False),
        ("- retried after 2s", "duration", True),
        ("- 每次 等 5 分钟", "duration", True),
        ("- keep 7 copies", "number", True),
        ("- host pve-01 at 10.0.0.2", "number", False),  # digits inside identifiers are no count
    ],
)
def test_a_chunk_holds_a_value_of_a_kind(text: str, kind: str, holds: bool) -> None:
    assert holds_kind(text, frozenset([kind])) is holds


def _first(tmp_path: Path, files: dict[str, str], query: str) -> str:
    search = MemorySearch(write_files(tmp_path / "ws", files), SearchOptions(), today=TODAY)
    results = search.search(query).results
    return results[0].path if results else ""


class _Chunks:
    """The one query _with_answer_types makes of the store: (id, text) of some chunks."""

    def __init__(self, texts: dict[int, str]) -> None:
        self.db = self
        self.texts = texts

    def execute(self, _sql: str, ids: list[int]) -> list[tuple[int, str]]:
        return [(cid, self.texts[cid]) for cid in ids]


@pytest.mark.parametrize(
    ("query", "with_value", "without"),
    [
        ("疫苗几号打", "## 小宝\n- 疫苗约在 6 月 12 日打", "## 小宝\n- 疫苗还要再打一针"),
        (
            "when does the lease end",
            "## Flat\n- the lease ends on 2027-06-30",
            "## Flat\n- the lease ends soon",
        ),
        ("磨豆机花了多少钱", "## 咖啡\n- 磨豆机到了，花了 3299 元", "## 咖啡\n- 磨豆机到了，京东自营"),
        ("how long do retries wait", "## Queue\n- retried after 2s", "## Queue\n- retried later"),
    ],
)
def test_a_chunk_with_the_asked_value_goes_part_of_the_way_to_a_full_score(
    query: str, with_value: str, without: str
) -> None:
    candidates = {1: engine._Candidate(1, 0.25), 2: engine._Candidate(2, 0.25), 3: engine._Candidate(3, 0.1)}
    store = _Chunks({1: with_value, 2: without, 3: with_value})
    engine._with_answer_types(store, asked_kinds(query), candidates)  # type: ignore[arg-type]
    assert candidates[1].text_score == pytest.approx(0.25 + engine.ANSWER_TYPE_SHARE * 0.75)
    assert candidates[1].text_score >= SearchOptions().min_score  # a lease end date found by "lease" alone
    assert candidates[2].text_score == 0.25  # never lowered
    assert candidates[3].text_score == 0.1  # a value alone answers nothing: below the floor, unchanged


def test_a_question_that_asks_for_no_value_changes_nothing() -> None:
    candidates = {1: engine._Candidate(1, 0.25)}
    engine._with_answer_types(
        _Chunks({1: "- 6 月 12 日，花了 80 元"}), asked_kinds("猫粮买的哪个牌子"), candidates
    )  # type: ignore[arg-type]
    assert candidates[1].text_score == 0.25


def test_a_note_sharing_no_word_with_the_question_is_no_answer_for_its_value(tmp_path: Path) -> None:
    # end to end: a date or an amount alone never brings a note in (the lift applies to candidates only)
    files = {"memory/2026-05-02.md": "# 2026-05-02\n\n## 杂事\n- 6 月 12 日交水费，花了 80 元。\n"}
    assert _first(tmp_path, files, "护照什么时候到期") == ""
    assert _first(tmp_path / "en", files, "when does my passport expire") == ""


@pytest.mark.parametrize(
    ("query", "frame", "kept"),
    [
        ("how much did the voice actor charge", "charge", "voice"),
        ("how much did the new kettle cost", "cost", "kettle"),
    ],
)
def test_a_word_that_only_restates_the_asked_kind_scores_nothing(query: str, frame: str, kept: str) -> None:
    terms = {
        t.term: t.weight for t in engine._without_frame_words(query, asked_kinds(query), query_terms(query))
    }
    assert terms[frame] == 0.0 and terms[kept] == 1.0


def test_a_frame_word_in_a_question_for_no_sum_is_a_word() -> None:
    query = "which card do I pay the gym with"
    assert {
        t.term: t.weight for t in engine._without_frame_words(query, asked_kinds(query), query_terms(query))
    }["pay"] == 1.0


def test_a_chinese_money_question_says_its_kind_with_question_words() -> None:
    weights = {
        t.term: t.weight
        for t in engine._without_frame_words(
            "配音花了多少钱", asked_kinds("配音花了多少钱"), query_terms("配音花了多少钱")
        )
    }
    assert weights["配音"] == 1.0 and weights.get("多少", 0.0) == 0.0 and weights.get("花了", 0.0) == 0.0


@pytest.mark.parametrize(
    ("note", "query"),
    [
        ("## 配音\n- 老周录了 40 句台词，报价 2400 元。", "how much did the voice actor charge"),
        ("## 配音\n- 老周录了 40 句台词，报价 2400 元。", "配音花了多少钱"),
    ],
)
def test_the_sum_is_found_though_the_note_never_says_the_verb(tmp_path: Path, note: str, query: str) -> None:
    files = {
        "memory/2026-05-01.md": f"# 2026-05-01\n\n{note}\n",
        "memory/2026-05-02.md": "# 2026-05-02\n\n## 杂事\n- 交了水费 80 元。\n- Paid the water bill.\n",
    }
    assert _first(tmp_path, files, query) == "memory/2026-05-01.md"


# -- round twelve: a share of a whole and a cause are kinds of answer too ----------------------


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("牙冠报销比例是多少", {"share"}),
        ("what percentage does the insurer cover", {"share"}),
        ("游戏卡顿的原因找到了吗", {"cause"}),
        ("为什么备份失败", {"cause"}),
        ("why did the nas get so slow", {"cause"}),
        ("what made the web shop go down", {"cause"}),
    ],
)
def test_a_question_for_a_share_or_a_cause(query: str, kinds: set[str]) -> None:
    assert asked_kinds(query) == frozenset(kinds)


@pytest.mark.parametrize(
    ("text", "kind", "holds"),
    [
        ("- 医保报 60%", "share", True),
        ("- the insurer covers 80 percent", "share", True),
        ("- 打七成", "share", True),
        ("- 七成员工", "share", False),
        ("- 1 月中出成绩", "date", True),
        ("- 原因：硬盘是 SMR 的", "cause", True),
        ("- slow because the drives are SMR", "cause", True),
        ("- Root cause: the cache key missed the tenant", "cause", True),
        ("- 换了一块新硬盘", "cause", False),
    ],
)
def test_a_chunk_holds_a_share_or_a_cause(text: str, kind: str, holds: bool) -> None:
    assert holds_kind(text, frozenset([kind])) is holds


@pytest.mark.parametrize(
    ("query", "frame", "kept"),
    [
        ("what made the web shop go down", "made", "shop"),
        ("what was the reason the import failed", "reason", "import"),
        ("by what date must the visa be renewed", "date", "visa"),
    ],
)
def test_a_word_that_restates_a_share_cause_or_date_scores_nothing(query: str, frame: str, kept: str) -> None:
    terms = {
        t.term: t.weight for t in engine._without_frame_words(query, asked_kinds(query), query_terms(query))
    }
    assert terms[frame] == 0.0 and terms[kept] == 1.0


def test_chinese_share_and_cause_words_name_the_kind_not_the_subject() -> None:
    weights = {t.term: t.weight for t in query_terms("燕麦皂的油脂比例和失败原因")}
    assert weights["油脂"] == 1.0 and weights.get("比例", 0.0) == 0.0 and weights.get("原因", 0.0) == 0.0


@pytest.mark.parametrize(
    ("note", "query"),
    [
        ("## 服务器宕机\n- 网店挂了 40 分钟。\n- 原因：证书过期，Caddy 没续上。", "网店为什么挂了"),
        (
            "## Shop outage\n- The web shop was down for 40 minutes.\n- Root cause: the TLS cert expired.",
            "why was the web shop down",
        ),
    ],
)
def test_the_note_giving_the_cause_is_found(tmp_path: Path, note: str, query: str) -> None:
    files = {
        "memory/2026-05-01.md": f"# 2026-05-01\n\n{note}\n",
        "memory/2026-05-02.md": "# 2026-05-02\n\n## 杂事\n- 交了水费 80 元。\n- Paid the water bill.\n",
    }
    assert _first(tmp_path, files, query) == "memory/2026-05-01.md"
