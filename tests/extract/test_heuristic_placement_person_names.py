"""Placement: a capitalized name with a person's title around it ("Yuki 老师", "Dr Hale") is someone,
not another product or host the section never names; so it does not keep a detail out of the chat's
home. A day that ends a sentence ("Thursday.") is a day, not a product. Two sections each."""

from __future__ import annotations

from savenow.extract.heuristic.placement import _other_system
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

STUDY = MemorySection("日语备考", ("教材：新完全掌握 N2 语法 + 读解。", '单词用 Anki，牌组 "N2 Core 2k"。'))
BILLS = MemorySection("信用卡账单", ("招行信用卡每月 8 号出账，26 号还款。",))


def test_a_teacher_named_in_latin_is_a_detail_of_the_study_plan_zh() -> None:
    messages = chat(
        "u: 新完全掌握的读解每天做两篇，Anki 牌组每天 30 张新卡",
        "a: 好的。口语练习怎么安排？",
        "u: 口语课定了：italki Yuki 老师，每周六 10:00 一小时口语课。",
        "a: 记下了：italki Yuki 老师，每周六 10:00 一小时口语课。",
    )
    notes = [n for n in saved(extract(messages, [STUDY, BILLS])) if "yuki" in text_of(n)]
    assert len(notes) == 1, [(n.title, n.bullets, n.action) for n in saved(extract(messages, [STUDY, BILLS]))]
    assert (notes[0].action, notes[0].merge_target_title) == ("merge", "日语备考")


VET = MemorySection("Biscuit (dog)", ("Apoquel 16mg once a day.",))
GARDEN = MemorySection("Garden", ("Tomatoes in the south bed.",))


def test_names_with_a_title_are_people_and_products_are_other_systems() -> None:
    assert not _other_system("italki Yuki 老师，每周六 10:00 一小时口语课。", STUDY)
    assert not _other_system("Booked a check-up with Dr Hale on Thursday.", VET)
    assert _other_system(
        "Booked a check-up through Petplan on Thursday.", VET
    )  # a product the section never names
    assert not _other_system("Watering is on Thursday.", GARDEN)  # a day ending the sentence


def test_a_vet_named_with_a_title_is_a_detail_of_the_dog_en() -> None:
    messages = chat(
        "u: Biscuit's Apoquel is working, the itching is much better",
        "a: Good to hear. Is there a follow-up?",
        "u: yes, the follow-up is with Dr Hale on 12 March at 09:30.",
        "a: Noted: follow-up with Dr Hale on 12 March at 09:30.",
    )
    notes = [n for n in saved(extract(messages, [GARDEN, VET])) if "hale" in text_of(n)]
    assert len(notes) == 1, [(n.title, n.bullets, n.action) for n in saved(extract(messages, [GARDEN, VET]))]
    assert (notes[0].action, notes[0].merge_target_title) == ("merge", "Biscuit (dog)")
