"""The concept thesaurus: the packaged file is well-formed, and zh/en lookups follow its groups."""

from __future__ import annotations

import pytest

from savenow.text import stopwords
from savenow.text.concepts import (
    CONCEPTS_PATH,
    ConceptFileError,
    RelatedTerm,
    Thesaurus,
    ancestors,
    concepts_in,
    concepts_of,
    get_concept,
    related_terms,
    singular_forms,
    thesaurus,
)
from savenow.text.normalize import compact

# Words that would connect everything (the data file's header says to keep them out).
TOO_GENERIC = {
    "thing",
    "things",
    "stuff",
    "use",
    "do",
    "make",
    "time",
    "东西",
    "用",
    "做",
    "时间",
    "问题",
    "事情",
}


def _lines() -> list[tuple[int, str]]:
    text = CONCEPTS_PATH.read_text(encoding="utf-8")
    return [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


# -- the packaged file ------------------------------------------------------------------------


def test_the_packaged_file_loads_with_breadth() -> None:
    loaded = thesaurus()
    assert len(loaded.concepts) >= 1200
    assert loaded.term_count >= 6000
    assert thesaurus() is loaded  # read once


def test_every_line_is_well_formed() -> None:
    """The same rules the loader enforces, stated line by line so a failure names the line."""
    ids: dict[str, int] = {}
    parents: dict[str, str | None] = {}
    problems: list[str] = []
    for number, line in _lines():
        head, tab, body = line.partition("\t")
        concept_id, arrow, parent = head.partition(">")
        terms = body.split("|")
        if not tab:
            problems.append(f"{number}: no TAB")
        if concept_id in ids:
            problems.append(f"{number}: duplicate id {concept_id} (line {ids[concept_id]})")
        if any(not term.strip() or term != term.strip() for term in terms):
            problems.append(f"{number}: empty term or spaces around |")
        keys = [compact(term) for term in terms]
        if len(set(keys)) != len(keys):
            problems.append(f"{number}: a term twice in {concept_id}")
        ids[concept_id] = number
        parents[concept_id] = parent if arrow else None
    for concept_id, parent in parents.items():
        if parent is not None and parent not in ids:
            problems.append(f"{ids[concept_id]}: unknown parent {parent}")
    for concept_id, first_parent in parents.items():
        seen = [concept_id]
        parent = first_parent
        while parent is not None and parent in parents:
            if parent in seen:
                problems.append(f"{ids[concept_id]}: cycle {' > '.join(seen)}")
                break
            seen.append(parent)
            parent = parents[parent]
    assert problems == []


def test_every_key_is_the_compact_form_of_its_term() -> None:
    """The loader normalizes a line's terms in one pass; that must equal compact() term by term."""
    loaded = thesaurus()
    for concept in loaded.concepts.values():
        for term in concept.terms:
            assert concept.id in loaded.concepts_of(term), (concept.id, term)
            assert compact(term) in loaded._by_key, term


def test_no_term_is_a_function_word_or_too_generic() -> None:
    generic = TOO_GENERIC | stopwords.EN_SMALL_WORDS | set(stopwords.ZH_FACT_TERM_HAN)
    offenders = [
        (concept.id, term)
        for concept in thesaurus().concepts.values()
        for term in concept.terms
        if compact(term) in generic
    ]
    assert offenders == []


def test_a_child_does_not_repeat_a_term_of_its_parent() -> None:
    """Broader links go through >parent; a term in both would make the link a synonym."""
    loaded = thesaurus()
    repeated = []
    for concept in loaded.concepts.values():
        if concept.parent is None:
            continue
        parent_keys = {compact(term) for term in loaded.concepts[concept.parent].terms}
        repeated += [(concept.id, term) for term in concept.terms if compact(term) in parent_keys]
    assert repeated == []


# -- the loader rejects malformed files ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("flower flower|花\n", "no TAB"),
        ("Flower\tflower|花\n", "bad id"),
        ("flower>\tflower|花\n", "bad parent id"),
        ("flower\tflower||花\n", "empty term"),
        ("flower\tflower|花|\n", "empty term"),
        ("flower\tflower | 花\n", "spaces around"),
        ("flower\tflower|花\nflower\tblossom\n", "duplicate id"),
        ("rose>flowr\trose|玫瑰\n", "unknown parent"),
        ("a>b\tapple|苹果\nb>a\tbanana|香蕉\n", "cycle"),
        ("a>a\tapple|苹果\n", "cycle"),
        ("flower\tflower|Flowers|FLOWER\n", "repeats"),
        ("flower\tflower|花|?\n", "normalizes to ''"),
        ("letters\tx|字母\n", "normalizes to 'x'"),
    ],
)
def test_malformed_files_are_rejected_with_the_line(text: str, problem: str) -> None:
    with pytest.raises(ConceptFileError) as raised:
        Thesaurus("# a comment\n\n" + text, source="test.txt")
    assert problem in raised.value.problem
    assert str(raised.value).startswith("test.txt:")
    assert raised.value.line >= 3


def test_comments_blank_lines_and_parents_defined_later_are_fine() -> None:
    small = Thesaurus("# header\n\nrose>flower\trose|玫瑰\n  # indented comment\nflower\tflower|花\n")
    assert small.ancestors("rose") == ("flower",)
    assert get_concept("no-such-id") is None
    assert small.get("flower") is not None
    assert small.get("flower").children == ("rose",)  # type: ignore[union-attr]


# -- lookups -------------------------------------------------------------------------------------

SMALL = Thesaurus(
    "flower\tflower|flowers|花|鲜花\n"
    "bellflower>flower\tbellflower|balloon flower|桔梗\n"
    "spending\tspend|花钱|花费\n"
    "web_server\tweb server|web服务器\n"
    "nginx>web_server\tnginx\n"
    "usb_drive\tusb drive|u盘\n"
    "aunt\taunt|阿姨\n"
    "nanny\tnanny|阿姨|保姆\n"
)


def test_chinese_and_english_terms_find_their_group() -> None:
    assert SMALL.concepts_of("桔梗") == ("bellflower",)
    assert SMALL.concepts_of("Balloon Flower") == ("bellflower",)
    assert SMALL.concepts_of("balloon flowers") == ("bellflower",)  # plural of the last word
    assert SMALL.concepts_of("Web-Server") == ("web_server",)  # punctuation normalized
    assert SMALL.concepts_of("webserver") == ("web_server",)  # a multi-word term written as one word
    assert SMALL.concepts_of("阿姨") == ("aunt", "nanny")  # a term with two meanings
    assert SMALL.concepts_of("rose") == ()


def test_related_terms_say_how_they_relate() -> None:
    related = SMALL.related_terms("桔梗")
    assert RelatedTerm("bellflower", "synonym", "bellflower") in related
    assert RelatedTerm("花", "broader", "flower") in related
    assert all(item.term != "桔梗" for item in related)
    narrower = SMALL.related_terms("flower")
    assert RelatedTerm("桔梗", "narrower", "bellflower") in narrower
    assert RelatedTerm("flowers", "synonym", "flower") in narrower
    assert [item.relation for item in narrower] == sorted(
        (item.relation for item in narrower), key=["synonym", "broader", "narrower"].index
    )
    assert SMALL.related_terms("nothing here") == ()


def test_concepts_in_text_uses_longest_match_for_chinese() -> None:
    assert SMALL.concepts_in("花钱买了桔梗") == {"spending", "bellflower"}  # 花钱 is not 花
    assert SMALL.concepts_in("买了一束鲜花") == {"flower"}
    assert SMALL.concepts_in("用nginx做web服务器") == {"nginx", "web_server"}
    assert SMALL.concepts_in("插上U盘") == {"usb_drive"}
    assert SMALL.concepts_in("menu盘") == set()  # a Latin-initial term starts at a word's start
    assert SMALL.concepts_in("") == set()


def test_concepts_in_text_matches_english_words_and_plurals() -> None:
    assert SMALL.concepts_in("Two web servers behind NGINX.") == {"web_server", "nginx"}
    assert SMALL.concepts_in("Flowers for the garden") == {"flower"}
    assert SMALL.concepts_in("a mayflower and a bellflowers sale") == {"bellflower"}  # whole words only
    assert SMALL.concepts_in("spend\nmore") == {"spending"}


def test_singular_forms() -> None:
    assert singular_forms("servers") == ("server",)
    assert singular_forms("batteries") == ("battery", "batterie")
    assert singular_forms("boxes") == ("box", "boxe")
    assert singular_forms("glass") == ()
    assert singular_forms("status") == ()
    assert singular_forms("gas") == ()


# -- the packaged thesaurus, through the module functions ----------------------------------------


@pytest.mark.parametrize(
    ("term", "concept"),
    [
        ("老婆", "wife"),
        ("spouse", "spouse"),
        ("长辈", "elders"),
        ("小朋友", "children"),
        ("会计", "accountant"),
        ("房东", "landlord"),
        ("截止日期", "deadline"),
        ("服务器", "server"),
        ("VPS", "vps"),
        ("监控", "monitoring"),
        ("证书", "certificate"),
        ("端口", "port"),
        ("树莓派", "raspberry_pi"),
        ("Postgres", "postgres"),
        ("OOM", "oom"),
        ("重启", "restart"),
        ("部署", "deploy"),
        ("密钥", "secret"),
        ("域名", "domain"),
        ("Tailscale", "tailscale"),
        ("容器", "container"),
        ("日志", "logs"),
        ("桔梗", "bellflower"),
    ],
)
def test_everyday_terms_of_both_languages_are_known(term: str, concept: str) -> None:
    assert concept in concepts_of(term)


@pytest.mark.parametrize(
    ("child", "parent"),
    [
        ("uptime_kuma", "uptime_monitor"),
        ("uptime_monitor", "monitoring"),
        ("gunicorn", "app_server"),
        ("nginx", "web_server"),
        ("bellflower", "flower"),
        ("wife", "spouse"),
        ("tailscale", "vpn"),
        ("postgres", "sql_database"),
    ],
)
def test_tools_sit_under_their_category(child: str, parent: str) -> None:
    concept = get_concept(child)
    assert concept is not None
    assert concept.parent == parent
    assert child in get_concept(parent).children  # type: ignore[union-attr]
    assert ancestors(child)[0] == parent


def test_words_with_no_shared_character_are_connected() -> None:
    assert any(item.term == "wife" for item in related_terms("老婆"))
    assert any(
        item.relation == "broader" and item.concept == "uptime_monitor"
        for item in related_terms("Uptime Kuma")
    )
    assert any(
        item.term == "TLS" or item.term == "tls"
        for item in related_terms("证书")
        if item.relation == "narrower"
    )
    assert "backup" in concepts_in("nightly restic snapshots of the NAS") or "snapshot" in concepts_in(
        "nightly restic snapshots of the NAS"
    )
    found = concepts_in("我老婆明天要去看牙医")
    assert {"wife", "tomorrow", "dentist"} <= found
    assert {"nginx", "oom", "deploy"} <= concepts_in("nginx ran out of memory (OOM) after the deploy")


def test_overlapping_chinese_words_both_count_but_nested_ones_do_not() -> None:
    small = Thesaurus("week\t下周|周\nwednesday\t周三\nmoney\t钱\nspending\t花钱\nflower\t花\n")
    assert small.concepts_in("下周三开会") == {"week", "wednesday"}
    assert small.concepts_in("花钱") == {"spending"}  # 花 and 钱 sit inside 花钱


def test_an_english_term_after_chinese_text_matches_only_as_a_whole_word() -> None:
    small = Thesaurus("uptime_monitor\tuptime|在线率\nuptime_kuma>uptime_monitor\tuptime kuma\n")
    assert small.concepts_in("跑着 Uptime Kuma") == {"uptime_kuma"}
    assert small.concepts_in("跑着uptimes很好") == {"uptime_monitor"}


def test_a_term_in_three_groups_names_all_three_in_file_order() -> None:
    small = Thesaurus("a\tapple|共享\nb\tbanana|共享|shared term\nc\tcherry|共享|shared terms\n")
    assert small.concepts_of("共享") == ("a", "b", "c")
    assert small.concepts_of("sharedterm") == ("b",)  # the one-word form of a multi-word term
    assert small.concepts_in("共享") == {"a", "b", "c"}


def test_the_briefs_examples_are_connected() -> None:
    assert any(item.term == "父母" and item.relation == "narrower" for item in related_terms("长辈"))
    assert any(item.term == "web worker" and item.relation == "broader" for item in related_terms("gunicorn"))
    assert any(item.term == "花" and item.relation == "broader" for item in related_terms("桔梗"))
    assert {"spouse"} == {item.concept for item in related_terms("老婆") if item.relation == "broader"}
    assert "release_process" in ancestors("deploy") and "release_process" in ancestors("release")


def test_each_sense_of_a_word_has_a_group_of_its_own() -> None:
    """A season or a frequency is no synonym of another one (summer is not winter, daily is not
    yearly): each is a child of the broader word. A word with two everyday senses sits in both
    (a school class and a class in code; a ring on a finger and a ring on the phone)."""
    summer = {item.term for item in related_terms("summer") if item.relation == "synonym"}
    assert "夏天" in summer and "winter" not in summer and "冬天" not in summer
    yearly = {item.term for item in related_terms("每年") if item.relation == "synonym"}
    assert "annually" in yearly and "每天" not in yearly
    assert {"class_lesson", "class_code"} <= set(concepts_of("class"))
    assert {"jewelry", "phone_call"} <= set(concepts_of("ring"))
    assert {"salary", "payment"} <= set(concepts_of("pay"))
    assert "server" in concepts_of("machine") and "机器" in {i.term for i in related_terms("machine")}


@pytest.mark.parametrize(
    ("term", "concept"),
    [
        ("上限", "limit"),
        ("ceiling", "limit"),
        ("retried", "retry"),
        ("重试", "retry"),
        ("爬虫", "scraper"),
        ("scrape", "scraper"),
        ("磨豆机", "coffee_grinder"),
        ("pour-over", "pour_over"),
        ("配音", "voice_acting"),
        ("subtitles", "subtitles"),
        ("夏令营", "summer_camp"),
        ("物理治疗师", "physiotherapist"),
        ("physiotherapist", "physiotherapist"),
        ("掉帧", "frame_rate"),
        ("top seller", "best_seller"),
        ("最好卖", "best_seller"),
        ("scale and polish", "dental_cleaning"),
        ("洗牙", "dental_cleaning"),
        ("制氧机", "oxygen_concentrator"),
        ("SSID", "wifi_name"),
        ("parking spot", "parking"),
        ("车位", "parking"),
        ("扣款", "debit"),
        ("个人养老金", "personal_pension"),
        ("物理治疗", "physical_therapy"),
        ("膝盖", "knee"),
        ("throat", "throat"),
        ("治疗", "treatment"),
        ("消防检查", "fire_safety"),
        ("smoke detector", "smoke_detector"),
        ("试用期", "probation"),
        ("补丁", "upgrade"),
        ("rented flat", "apartment"),
        ("inspection", "inspection"),
        ("检查", "inspection"),
        ("下回", "next_time"),
        ("get pinged", "notification"),
        ("通知我", "notification"),
        ("马桶", "toilet_fixture"),
        ("circuit breaker", "fuse"),
        ("地铁卡", "transit_card"),
        ("跳闸", "fuse"),
        ("stroller", "baby_gear"),
        ("过路费", "toll"),
        ("春游", "school_trip"),
    ],
)
def test_round_eleven_general_vocabulary_is_known(term: str, concept: str) -> None:
    assert concept in concepts_of(term)


def test_no_term_is_copied_into_a_second_group() -> None:
    """A word in two groups gets both groups' expansions; a new word joins the group that has its
    meaning. The shared words are homonyms or predate this check; their number only shrinks."""
    from savenow.text.concepts import _parse_lines

    owners: dict[str, set[str]] = {}
    for line in _parse_lines(CONCEPTS_PATH.read_text(encoding="utf-8"), "concepts.txt"):
        for term in line.terms:
            owners.setdefault(term.casefold(), set()).add(line.id)
    shared = sorted(term for term, groups in owners.items() if len(groups) > 1)
    assert len(shared) <= 65, shared


@pytest.mark.parametrize(
    ("term", "concept"),
    [
        ("oolong", "tea_oolong"),
        ("乌龙茶", "tea_oolong"),
        ("interest", "interest"),
        ("permit", "permit"),
        ("冲凉", "bathing"),
        ("stool", "chair"),
        ("汽车保险", "car_insurance"),
    ],
)
def test_round_thirteen_general_vocabulary_is_known(term: str, concept: str) -> None:
    assert concept in concepts_of(term)


@pytest.mark.parametrize(
    ("term", "not_in"),
    [("twice", "recurring"), ("许可", "permit"), ("licence", "permit"), ("January 1st", "new_year")],
)
def test_words_of_one_query_or_of_another_sense_are_not_in_these_groups(term: str, not_in: str) -> None:
    # "subtracted twice" is no recurrence, bare 许可 is permission, "licence" is a driving licence or a
    # software licence as often as a permit, and a date string is no word (review of round thirteen)
    assert not_in not in concepts_of(term)


def test_oolong_is_a_kind_of_tea_not_another_word_for_tea() -> None:
    related = related_terms("oolong")
    assert any(item.term == "单丛" and item.relation == "synonym" for item in related)
    assert not any(item.term == "绿茶" and item.relation == "synonym" for item in related)
