"""Placement: a faint topic home — the only section a chat touches, on little evidence (the chat never
writes the heading's words) — takes the chat's details, but not a new party (someone reached by a
phone or a WeChat the section never lists), and a section of preferences is never one."""

from __future__ import annotations

from savenow.extract.heuristic.placement import FaintHome, topic_home
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

REHAB = MemorySection(
    "Knee rehab",
    ("Physio with Dr Patel on Tuesdays.", "Straight leg raises, three sets of ten, mornings."),
)
GROCERIES = MemorySection("Groceries", ("Oat milk from the corner shop.",))


def _rehab_chat(*tail: str):
    return chat(
        "u: saw the physio today, she changed the plan a bit",
        "a: What did Patel change?",
        "u: the straight leg raises stay as they are",
        *tail,
    )


def test_the_only_section_a_chat_touches_faintly_takes_its_details_en() -> None:
    messages = _rehab_chat(
        "u: new one: wall sits, 3 x 45 seconds, every day at 17:30",
        "a: Got it: wall sits, 3 x 45 s daily at 17:30.",
        "u: yes",
    )
    assert isinstance(topic_home([m.text for m in messages], [REHAB, GROCERIES]), FaintHome)
    notes = [n for n in saved(extract(messages, [REHAB, GROCERIES])) if "17:30" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Knee rehab"


def test_a_new_party_is_no_detail_of_a_faint_home_en() -> None:
    messages = _rehab_chat(
        "u: and the hydrotherapy pool for the sessions, phone 020 7946 0321, remember that",
        "a: Noted: the hydrotherapy pool, phone 020 7946 0321.",
        "u: yes",
    )
    assert isinstance(topic_home([m.text for m in messages], [REHAB, GROCERIES]), FaintHome)
    notes = [n for n in saved(extract(messages, [REHAB, GROCERIES])) if "7946" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "add"


MEDS = MemorySection("妈妈的药", ("氨氯地平 5mg，每天早上一片。",))
BROADBAND = MemorySection("家里宽带", ("电信 500M，每月 15 号扣费。",))


def _meds_chat(*tail: str):
    return chat(
        "u: 今天陪妈去复诊了",
        "a: 医生怎么说？氨氯地平还是每天早上一片吗？",
        "u: 氨氯地平不变",
        *tail,
    )


def test_the_only_section_a_chat_touches_faintly_takes_its_details_zh() -> None:
    messages = _meds_chat(
        "u: 另外晚上加一片阿托伐他汀 10mg，记一下",
        "a: 好的：阿托伐他汀 10mg，每晚一片。",
        "u: 对",
    )
    assert isinstance(topic_home([m.text for m in messages], [MEDS, BROADBAND]), FaintHome)
    notes = [n for n in saved(extract(messages, [MEDS, BROADBAND])) if "阿托伐他汀" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "妈妈的药"


def test_a_new_party_is_no_detail_of_a_faint_home_zh() -> None:
    messages = _meds_chat(
        "u: 社区的家庭医生换成孙丽了，电话 0571-8602 3317，记一下",
        "a: 好的：家庭医生孙丽，电话 0571-8602 3317。",
        "u: 对",
    )
    assert isinstance(topic_home([m.text for m in messages], [MEDS, BROADBAND]), FaintHome)
    notes = [n for n in saved(extract(messages, [MEDS, BROADBAND])) if "8602" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "add"


PREFS = MemorySection("用户偏好", ("回复用中文，命令和报错保持原文。", "涉及删除数据的操作先问我。"))
BOOKS = MemorySection("读书", ("《长安的荔枝》读完了。",))
STYLE = MemorySection("Reply style", ("Reply in short sentences, commands verbatim.",))
TRIPS = MemorySection("Trips", ("Lisbon in May.",))


def test_a_section_of_preferences_is_never_a_faint_home() -> None:
    zh = ["u: 容器里的命令报错了，权限不够", "a: 用 www-data 跑这个命令就行。"]
    en = ["u: the backup commands fail with a permission error", "a: Run the commands as www-data."]
    assert topic_home(zh, [PREFS, BOOKS]) is None
    assert topic_home(en, [STYLE, TRIPS]) is None
