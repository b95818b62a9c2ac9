"""One test per ranking rule of docs/search.md (issue 14, round 10), in Chinese and in English.

Each workspace is written here, small and made up (not an evaluation set's notes).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from savenow.search import MemorySearch, SearchOptions, engine
from savenow.search.engine import SearchHit, _supersedes
from savenow.search.tokenize import query_terms, subject_terms
from savenow.text.changes import states_a_change

from .conftest import TODAY, write_files


def _search(tmp_path: Path, files: dict[str, str]) -> MemorySearch:
    return MemorySearch(write_files(tmp_path / "ws", files), SearchOptions(), today=TODAY)


def _paths(search: MemorySearch, query: str) -> list[str]:
    return [hit.path for hit in search.search(query).results]


# -- a coverb between two words of a question is a seam, not a word ---------------------------


@pytest.mark.parametrize(
    ("query", "seams", "words"),
    [
        ("孩子对什么过敏", {"子对"}, {"孩子", "过敏"}),
        ("油墨从哪家店买", {"墨从"}, {"油墨"}),
        ("这份合同给谁签", {"同给"}, {"合同"}),
    ],
)
def test_a_coverb_splits_a_chinese_question(query: str, seams: set[str], words: set[str]) -> None:
    terms = {t.term: t.weight for t in query_terms(query)}
    assert not seams & {term for term, weight in terms.items() if weight > 0}
    assert words <= {term for term, weight in terms.items() if weight >= 1}


def test_a_word_a_coverb_begins_stays_a_word() -> None:
    terms = {t.term: t.weight for t in query_terms("对象存储放在哪")}
    assert terms.get("对象") == 1.0 and terms.get("存储") == 1.0
    assert query_terms("跟进的客户有几个")[0].term == "跟进"


def test_a_coverb_seam_some_note_holds_by_chance_does_not_count(tmp_path: Path) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": "# 2026-05-01\n\n## 体检\n- 孩子花生过敏，书包里常备抗过敏药。\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## 快递\n- 纸盒子对折后放进回收箱。\n",
        },
    )
    assert _paths(search, "孩子对什么过敏")[:1] == ["memory/2026-05-01.md"]


# -- a narrower term makes a query word known ---------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "other", "query"),
    [
        ("- 花生过敏，书包里常备抗过敏药。", "- 儿子九月上二年级。", "孩子对什么过敏"),
        (
            "- Allergic to peanuts; the EpiPen is in the school bag.",
            "- Our son starts grade two in September.",
            "what is my kid allergic to",
        ),
    ],
)
def test_a_narrower_term_makes_a_query_word_known(
    tmp_path: Path, answer: str, other: str, query: str
) -> None:
    """No note says 孩子 / kid, one says 儿子 / son (a kind of child): the word is known, so the
    note that answers the rest of the question is no longer held to "answer two words"."""
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": f"# 2026-05-01\n\n## Health\n{answer}\n",
            "memory/2026-05-02.md": f"# 2026-05-02\n\n## School\n{other}\n",
            "memory/2026-05-03.md": "# 2026-05-03\n\n## Garden\n- Planted basil and mint.\n",
        },
    )
    assert "memory/2026-05-01.md" in _paths(search, query)  # before: "answers one word only", score 0


@pytest.mark.parametrize("query", ["护照什么时候过期", "when does my passport expire"])
def test_a_broader_term_still_does_not(tmp_path: Path, query: str) -> None:
    # 证件 (documents) is broader than 护照 (passport): it makes the word no better known.
    search = _search(
        tmp_path,
        {"memory/2026-05-01.md": "# 2026-05-01\n\n## 证件\n- 身份证 2030 年过期，证件放在书房抽屉。\n"},
    )
    assert search.search(query).results == []


# -- decay breaks near-ties; it does not outweigh a clearly better match ------------------------


@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        (
            "## 家里网络\n- 家里路由器管理密码是 blue-otter-42。",
            "## 办公室\n- 办公室路由器管理密码被 IT 重置了。",
            "家里路由器管理密码",
        ),
        (
            "## Home network\n- Home router admin password is blue-otter-42.",
            "## Office\n- The office router admin password was reset by IT.",
            "home router admin password",
        ),
    ],
)
def test_an_older_note_that_answers_clearly_better_stays_first(
    tmp_path: Path, old: str, new: str, query: str
) -> None:
    """The newer note matches two thirds of the query, the older one all of it (home / 家里): five
    months of age must not turn that around (recency_floor 0.9; at 0.6 it did)."""
    search = _search(
        tmp_path,
        {
            "memory/2026-01-05.md": f"# 2026-01-05\n\n{old}\n",
            "memory/2026-05-30.md": f"# 2026-05-30\n\n{new}\n",
        },
    )
    assert _paths(search, query)[:1] == ["memory/2026-01-05.md"]


# -- a newer note matching the same words supersedes only when it is about the same thing ---------


def _hit(path: str, day: str, score: float) -> SearchHit:
    return SearchHit(path, 3, 4, score, "", "memory", day, score)


@pytest.mark.parametrize(
    ("old_heading", "new_heading", "word"),
    [("学校表格", "爬山", "过敏"), ("School form", "Hiking trip", "allergic")],
)
def test_a_newer_note_on_another_subject_does_not_supersede(
    old_heading: str, new_heading: str, word: str
) -> None:
    """Both notes match the query's word, the newer one nearly as well: without a shared subject
    (heading word, identifier) or a stated change it is not the newer version of the older one."""
    old, new = (
        _hit("memory/2026-03-01.md", "2026-03-01", 1.0),
        _hit("memory/2026-05-20.md", "2026-05-20", 0.8),
    )
    matched = {(old.path, 3): {word: 1.0}, (new.path, 3): {word: 1.0}}

    def supersedes(headings: dict[str, str]) -> bool:
        def subject_of(key: tuple[str, int]) -> frozenset[str]:
            return subject_terms(headings[key[0]], "")

        return _supersedes(new, old, matched, subject_of, lambda key, terms: set(), lambda key, terms: set())

    assert not supersedes({old.path: old_heading, new.path: new_heading})
    assert supersedes({old.path: old_heading, new.path: f"{old_heading} {new_heading}"})


@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        (
            "## 猫的事\n- 猫粮：皇家室内成猫 2kg，一袋 40 天。\n- Mochi 最近掉毛，买了梳子。",
            "## Mochi 看病\n- 医生建议换低敏的。\n- 猫粮换成渴望六种鱼 1.8kg。",
            "Mochi 现在吃什么猫粮",
        ),
        (
            "## Pantry\n- Cat food: Royal Canin indoor 2kg bag.\n- Mochi sheds a lot, bought a brush.",
            "## Mochi at the vet\n- Vet suggested a gentler diet.\n- Cat food switched to Orijen 1.8kg.",
            "which cat food does Mochi eat now",
        ),
    ],
)
def test_a_newer_note_that_says_the_thing_changed_still_supersedes(
    tmp_path: Path, old: str, new: str, query: str
) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-03-01.md": f"# 2026-03-01\n\n{old}\n",
            "memory/2026-05-20.md": f"# 2026-05-20\n\n{new}\n",
        },
    )
    paths = _paths(search, query)
    assert paths.index("memory/2026-05-20.md") < paths.index("memory/2026-03-01.md")


# -- "new X …, the old one is no longer used" says a value changed ------------------------------


def test_new_and_old_markers_state_a_change() -> None:
    assert states_a_change("gw-01 新的 管理地址 10.8.3.1，旧的 192.168.31.1 不用了")
    assert states_a_change("旧的 NAS 停用了")
    assert states_a_change("the old address is no longer used")
    assert not states_a_change("管理地址 192.168.31.1，LuCI 端口 80")


def test_a_newer_note_giving_the_new_address_ranks_first(tmp_path: Path) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-03-01.md": "# 2026-03-01\n\n## 路由器\n- gw-01 管理地址 192.168.31.1，LuCI 端口 80。\n",
            "memory/2026-05-20.md": (
                "# 2026-05-20\n\n## 网络重新规划\n- 家里 LAN 换到 10.8.3.0/24。\n"
                "- gw-01 新的 管理地址 10.8.3.1，旧的 192.168.31.1 不用了。\n"
            ),
        },
    )
    paths = _paths(search, "家里路由器的管理地址现在是多少")
    assert paths[:1] == ["memory/2026-05-20.md"] and "memory/2026-03-01.md" in paths


# -- the edge of a known word is no word memory never saw --------------------------------------


def test_the_edge_of_a_known_word_becomes_its_one_character_word() -> None:
    from savenow.search.engine import _half_seams

    terms = query_terms("内存上限设的多少")
    df = {"内存": 3, "上限": 2, "存上": 0, "限设": 0}
    seen = {"内", "存", "上", "限", "的", "多", "少"}
    kept = {t.term: t.weight for t in _half_seams(terms, df, seen)}
    assert "限设" not in kept and kept["设"] == 0.5  # 设 "set", a word of one character
    # 盘换 in 硬盘换过: 换过 is absent too, so neither is known to be an edge; both stay.
    terms = query_terms("硬盘换过")
    kept = {t.term for t in _half_seams(terms, {"硬盘": 4}, {"硬", "盘"})}
    assert {"盘换", "换过"} <= kept
    # English terms are never touched.
    english = query_terms("redis memory limit")
    assert _half_seams(english, {}, set()) == english


def test_a_note_that_answers_the_rest_is_no_longer_held_to_two_words(tmp_path: Path) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": "# 2026-05-01\n\n## Redis 配置\n- Redis maxmemory 512mb，策略 allkeys-lru。\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## 相册\n- 共享相册上限 5 个人，设置里可以改。\n",
            "memory/2026-05-03.md": "# 2026-05-03\n\n## Garden\n- Planted basil and mint.\n",
        },
    )
    assert "memory/2026-05-01.md" in _paths(search, "Redis 上限设的多少")  # before: 限设 unknown, score 0
    assert search.search("Redis 护照设的多少").results == []  # a real unknown word still is one


def test_a_group_of_several_words_answers_as_many_words(tmp_path: Path) -> None:
    """ "home loan" said as "mortgage" answers two of the question's words, as a note saying
    "home loan" would: the note is not held to "answer two words" by a word memory never saw."""
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": "# 2026-05-01\n\n## Bank\n- Mortgage fixed at 3.1% until 2029.\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## Garden\n- Planted basil and mint at home.\n",
            "memory/2026-05-03.md": "# 2026-05-03\n\n## Car\n- Car loan paid off in March.\n",
            # alternatives are used only for words few notes hold
            **{
                f"memory/2026-{m:02d}-{d:02d}.md": f"# x\n\n## Walk\n- Walked {m * d} steps.\n"
                for m in (3, 4)
                for d in range(1, 29)
            },
        },
    )
    assert _paths(search, "home loan penalty")[:1] == ["memory/2026-05-01.md"]
    assert search.search("basil penalty").results == []  # one word alone still is no answer


def test_the_head_word_said_another_way_may_answer_alone(tmp_path: Path) -> None:
    """The question's first word, the thing it asks about, said another way by a note (物理治疗师
    as "physio") answers on its own; another word said otherwise, or the head unknown, does not."""
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": "# 2026-05-01\n\n## Knee\n- Physio says: ice the knee twice a day.\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## Garden\n- Planted basil and mint.\n",
            **{
                f"memory/2026-{m:02d}-{d:02d}.md": f"# x\n\n## Walk\n- Walked {m * d} steps.\n"
                for m in (3, 4)
                for d in range(1, 29)
            },
        },
    )
    assert _paths(search, "物理治疗师 建议")[:1] == ["memory/2026-05-01.md"]
    assert search.search("建议 物理治疗师").results == []  # only the first word may answer alone
    assert search.search("护照 物理治疗师").results == []


# -- a singular query word finds a term the thesaurus lists only in the plural -------------------


def test_a_singular_english_word_finds_a_term_listed_in_the_plural() -> None:
    from savenow.search.expand import _plural, concept_expansions

    assert [_plural(w) for w in ("light", "battery", "box", "day")] == [
        "lights",
        "batteries",
        "boxes",
        "days",
    ]
    # "lights" and "peanuts" are listed in the plural only: the singular reaches their translations.
    assert "灯" in {e.related for e in concept_expansions("the kitchen light")}
    assert "花生" in {e.related for e in concept_expansions("a peanut")}
    # Chinese stretches are looked up as they are (灯管 → bulb).
    assert "bulb" in {e.related for e in concept_expansions("厨房灯管坏了")}


def test_a_singular_light_finds_the_chinese_note(tmp_path: Path) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": "# 2026-05-01\n\n## 家里 灯\n- 电工说是镇流器老化，建议整排换灯管。\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## Garden\n- Planted basil and mint.\n",
        },
    )
    assert _paths(search, "what did the electrician say about the kitchen light")[:1] == [
        "memory/2026-05-01.md"
    ]


# -- a heading that says its subject changed speaks for the note --------------------------------


@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        (
            "## 网店快递\n- 发货用顺丰，网点在湖滨路，首重 12 元。\n- 每天下午 5 点前打包。",
            "## 15:30 - 网店 快递换了\n- 顺丰那个网点总是晚收件，改用韵达，首重 4.5 元。",
            "网店发货用哪家快递",
        ),
        (
            "## Shop courier\n- Parcels ship with SpeedEx, pickup at 17:00, 9.50 a parcel.",
            "## 15:30 - Shop courier changed\n- SpeedEx kept missing pickups; FastLine from now on, 4.20 each.",
            "which courier ships the shop's parcels",
        ),
    ],
)
def test_a_heading_that_says_the_subject_changed_supersedes(
    tmp_path: Path, old: str, new: str, query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "memory/2026-03-01.md": f"# 2026-03-01\n\n{old}\n",
        "memory/2026-05-20.md": f"# 2026-05-20\n\n{new}\n",
        "memory/2026-04-02.md": "# 2026-04-02\n\n## 杂事\n- 给妈妈寄了一箱橙子 parcel，发货很快，ships fast。\n",
    }
    paths = _paths(_search(tmp_path / "rule", files), query)
    assert paths.index("memory/2026-05-20.md") < paths.index("memory/2026-03-01.md")
    monkeypatch.setattr(engine, "HEADING_CHANGE_WORDS", 99)  # without the rule the older one leads
    paths = _paths(_search(tmp_path / "none", files), query)
    assert paths.index("memory/2026-03-01.md") < paths.index("memory/2026-05-20.md")


def test_a_heading_change_naming_one_query_word_moves_nothing(tmp_path: Path) -> None:
    """ "restic 备份迁到 R2" changes where backups go, not how long they are kept."""
    search = _search(
        tmp_path,
        {
            "memory/2026-03-01.md": "# 2026-03-01\n\n## 备份策略\n- 备份保留 30 天，每晚 2 点跑。\n",
            "memory/2026-05-20.md": "# 2026-05-20\n\n## 备份迁到新仓库\n- 仓库换成 R2，旧仓库先保留，2 个 key。\n",
            "memory/2026-04-02.md": "# 2026-04-02\n\n## 相册\n- 照片保留原图，手机每晚自动备份。\n",
        },
    )
    assert _paths(search, "备份保留几天")[:1] == ["memory/2026-03-01.md"]


# -- a word that names the kind of answer (指标, 结果, name, result) is no subject ----------------


@pytest.mark.parametrize(
    ("query", "frame", "subject"),
    [
        ("尿酸指标多少", "指标", "尿酸"),
        ("上次体检结果", "结果", "体检"),
        ("访客网络叫什么名字", "名字", "访客"),
        ("what was the cholesterol result", "result", "cholesterol"),
        ("what's the name of the kindergarten teacher", "name", "teacher"),
    ],
)
def test_a_word_naming_the_kind_of_answer_scores_nothing(query: str, frame: str, subject: str) -> None:
    weights = {t.term: t.weight for t in query_terms(query)}
    assert weights.get(frame, 0.0) == 0.0
    assert weights[subject] == 1.0


@pytest.mark.parametrize(
    ("note", "query"),
    [
        ("## 体检\n- 尿酸 520 μmol/L，偏高，少喝啤酒。", "尿酸指标多少"),
        ("## Checkup\n- Cholesterol 5.2 mmol/L, a bit high.", "what was the cholesterol result"),
    ],
)
def test_the_note_is_found_though_no_note_says_the_answer_kind(tmp_path: Path, note: str, query: str) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": f"# 2026-05-01\n\n{note}\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## 杂事\n- 交了水费 80 元。\n- Paid the water bill.\n",
        },
    )
    assert _paths(search, query)[:1] == ["memory/2026-05-01.md"]


# -- an English -ed/-ing word finds the thesaurus term in its base form -----------------------


def test_a_past_or_ing_form_finds_the_base_form_term() -> None:
    from savenow.search.expand import _base_forms, concept_expansions

    assert _base_forms("repaired") == ("repair", "repaire")
    assert _base_forms("charged") == ("charg", "charge")
    assert _base_forms("repair") == () and _base_forms("修好了") == ()
    assert "维修" in {e.related for e in concept_expansions("who repaired the heater")}
    assert "维修" in {e.related for e in concept_expansions("who repairs the heater")}


def test_who_repaired_it_finds_the_chinese_repair_note(tmp_path: Path) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": "# 2026-05-01\n\n## 洗衣机\n- 洗衣机维修，师傅换了排水泵，150 元。\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## Garden\n- Planted basil and mint, washing the pots.\n",
        },
    )
    assert _paths(search, "who repaired the washing machine")[:1] == ["memory/2026-05-01.md"]
    assert _paths(search, "洗衣机谁修的")[:1] == ["memory/2026-05-01.md"]


# -- round twelve: a change said in the other language, a thing's name left out ---------------

# Other ways of saying a word are tried only for words few notes hold (EXPAND_AT_MOST): a
# workspace of fifty other sections, as a real memory has.
_OTHER_SECTIONS = "".join(f"## 杂事 {i}\n- 第 {i} 次买菜，记账 {i} 元。\n\n" for i in range(50))


@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        (
            "## NAS 照片备份\n- Synology Photos 每晚 01:30 备份到外接硬盘，保留最近 30 个版本。",
            "## Photo backup policy change\n- Changed the USB photo backup to keep 60 versions instead of 30.",
            "照片备份保留几个版本",
        ),
        (
            "## Photo backup\n- Synology Photos backs up nightly to the USB disk and keeps 30 versions.",
            "## 照片备份调整\n- 外接硬盘的照片备份改成保留 60 个版本。",
            "how many versions does the photo backup keep",
        ),
    ],
)
def test_a_change_said_in_the_other_language_supersedes(
    tmp_path: Path, old: str, new: str, query: str
) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-03-01.md": f"# 2026-03-01\n\n{old}\n",
            "memory/2026-05-20.md": f"# 2026-05-20\n\n{new}\n",
            "memory/2026-04-02.md": f"# 2026-04-02\n\n{_OTHER_SECTIONS}",
        },
    )
    paths = _paths(search, query)
    assert paths.index("memory/2026-05-20.md") < paths.index("memory/2026-03-01.md")


def test_a_same_language_synonym_in_a_change_line_says_nothing_changed() -> None:
    # "server" may stand for "host", but "ClickHouse moved to clickhouse-server" is no news of
    # where a service is hosted: only a translation names the query word in a change line.
    from savenow.search.engine import _forms, _named

    forms = _forms({"host": {"server"}, "版本": {"version"}}, ["host", "版本"])
    assert forms == {"host": {"host"}, "版本": {"版本", "version"}}
    assert _named(forms, ["clickhouse", "move", "server"]) == set()
    assert _named(forms, ["keep", "60", "version"]) == {"版本"}


@pytest.mark.parametrize(
    ("old", "new", "query"),
    [
        (
            "## Postgres connections\n- db-main Postgres `max_connections` 100; four workers fit.",
            "## Sale prep\n- Scaled the workers from 4 to 6; Postgres `max_connections` raised to 150.",
            "Postgres max_connections on db-main",
        ),
        (
            "## 数据库连接数\n- db-main 上 Postgres 的 `max_connections` 是 100。",
            "## 大促准备\n- worker 从 4 个加到 6 个，Postgres `max_connections` 提高到 150。",
            "db-main 的 max_connections 设的多少",
        ),
    ],
)
def test_a_newer_note_that_leaves_out_the_host_name_still_supersedes(
    tmp_path: Path, old: str, new: str, query: str
) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-03-01.md": f"# 2026-03-01\n\n{old}\n",
            "memory/2026-05-20.md": f"# 2026-05-20\n\n{new}\n",
            "memory/2026-04-02.md": "# 2026-04-02\n\n## db-main\n- db-main 磁盘 80 GB。\n",
        },
    )
    paths = _paths(search, query)
    assert paths.index("memory/2026-05-20.md") < paths.index("memory/2026-03-01.md")


def test_a_value_is_a_version_an_address_or_a_port_not_a_name_with_a_digit() -> None:
    from savenow.search.engine import _names_a_value

    assert (
        _names_a_value("clickhouse-server:24.8")
        and _names_a_value("10.8.3.1")
        and _names_a_value("redis:6380")
    )
    assert not _names_a_value("db-main") and not _names_a_value("tidepool-api")
    assert not _names_a_value("nas01") and not _names_a_value("m4-studio")


def test_a_possessive_finds_the_word_in_the_thesaurus() -> None:
    from savenow.search.expand import concept_expansions

    assert "妈妈" in {e.related for e in concept_expansions("mom's travel insurance")}
    assert query_terms("whether it passed")[0].weight == 0.0  # a function word, like "if"


# -- everyday words in both languages reach each other; ambiguous bare words do not ------------


@pytest.mark.parametrize(
    ("query", "related"),
    [
        ("what time does the plane arrive", "落地"),
        ("几点抵达", "arrival"),
        ("VAT rate in Portugal", "iva"),
        ("knee joint", "关节"),
        ("oil heater in the bedroom", "油汀"),
        ("一晚上用多少度电", "overnight"),
        ("远程访问家里的 NAS", "remote access"),
        ("卖出了多少", "sold"),
    ],
)
def test_everyday_words_reach_the_other_language(query: str, related: str) -> None:
    from savenow.search.expand import concept_expansions

    assert related in {e.related for e in concept_expansions(query)}


@pytest.mark.parametrize(
    ("query", "unrelated"),
    [
        ("NAS temp folder", "临时"),
        ("how many days of leave left", "离开"),
        ("which tests failed in CI", "期末"),
        ("hotel reception phone", "信号强度"),
        ("flat white at the cafe", "公寓"),
    ],
)
def test_a_word_with_several_meanings_expands_to_none_of_them(query: str, unrelated: str) -> None:
    from savenow.search.expand import concept_expansions

    assert unrelated not in {e.related for e in concept_expansions(query)}


@pytest.mark.parametrize(
    ("note", "query"),
    [
        (
            "## 家里的暖气\n- 客厅的油汀开一晚上大概 4 度电。",
            "how much electricity does the living room radiator use overnight",
        ),
        (
            "## Heating\n- The oil heater in the lounge uses about 4 kWh overnight.",
            "客厅的油汀一晚上用多少度电",
        ),
    ],
)
def test_a_cross_language_paraphrase_through_everyday_words(tmp_path: Path, note: str, query: str) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": f"# 2026-05-01\n\n{note}\n",
            "memory/2026-04-02.md": f"# 2026-04-02\n\n{_OTHER_SECTIONS}",
        },
    )
    assert _paths(search, query)[:1] == ["memory/2026-05-01.md"]


def test_this_or_that_with_a_measure_word_is_a_function_word() -> None:
    weights = {t.term: t.weight for t in query_terms("家里那台服务器一个月耗多少电")}
    assert weights["服务"] == 1.0 and weights["家里"] == 1.0
    assert not {"里那", "台服"} & set(weights) and weights.get("那台", 0.0) == 0.0
    assert {t.term: t.weight for t in query_terms("这家店的电话")}.get("这家", 0.0) == 0.0


def test_english_function_words_and_how_long_score_nothing() -> None:
    from savenow.search.answers import asked_kinds

    query = "how long do rejected jobs wait before another attempt"
    weights = {
        t.term: t.weight for t in engine._without_frame_words(query, asked_kinds(query), query_terms(query))
    }
    assert weights["long"] == weights["before"] == weights["another"] == 0.0
    assert weights["job"] == 1.0


def test_goes_and_went_are_forms_of_go() -> None:
    from savenow.search.tokenize import document_terms

    assert {t.term for t in query_terms("when a site goes down") if t.weight > 0} == {"site", "go"}
    assert "go" in document_terms("the site went down at 3 am")
    assert query_terms("while traveling")[0].weight == 0.0


# -- a word memory knows only in another language is a word: the bigram across its edge is a seam --


def test_a_seam_between_two_words_said_in_the_other_language_does_not_count(tmp_path: Path) -> None:
    """外婆冲凉坐的凳子在哪订: memory says 外婆 as "grandma", 冲凉 as "shower", 凳子 as "stool"; 婆冲
    straddles two of those words and is no word, so it no longer counts against the note that
    answers two of the three."""
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": "# 2026-05-01\n\n## Bathroom\n- The shower stool came from the hardware shop on Elm Road.\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## Visit\n- Grandma stays with us until Friday.\n",
            "memory/2026-05-03.md": "# 2026-05-03\n\n## 周末\n- 公园散步，买了一袋橘子。\n",
        },
    )
    assert _paths(search, "外婆冲凉坐的凳子在哪订")[:1] == ["memory/2026-05-01.md"]


def test_one_word_said_in_the_other_language_still_answers_nothing(tmp_path: Path) -> None:
    search = _search(
        tmp_path,
        {
            "memory/2026-05-01.md": "# 2026-05-01\n\n## Car-free Sunday\n- Took the metro and a bus to the museum.\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## 保险\n- 妈妈的医疗保险单放在书房抽屉。\n",
        },
    )
    assert search.search("汽车保险什么时候续").results == []
