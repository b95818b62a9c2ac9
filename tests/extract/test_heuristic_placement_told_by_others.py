"""Placement: someone else telling the user ("房东通知我…", "she'll text me the results", "Dr. Hale will
let me know") is no rule for the assistant: the note is the subject's fact and merges under its section
(review of round fourteen, item 1). What counts as a rule for the assistant is tested in one place,
test_heuristic_placement_rules_to_the_user."""

from __future__ import annotations

from savenow.models import MemorySection

from .placing import placed as _placed

RENT = MemorySection("房租", ("房租每月 3200 元，每月 5 号前转给房东。",))
DOG = MemorySection("Biscuit (dog)", ("Apoquel 16mg once a day with breakfast.", "Vet: Dr. Hale, Thursdays."))
STYLE = MemorySection("Reply style", ("Answers short, conclusion first.",))
ZH_STYLE = MemorySection("通知偏好", ("磁盘有异常就告诉我。",))


def test_a_new_rent_told_by_the_landlord_merges_under_the_rent_zh() -> None:
    assert _placed("房东通知我下个月起房租每月涨到 3500 元。", [RENT, ZH_STYLE]) == ("merge", "房租")


def test_a_new_dose_the_vet_will_text_about_merges_under_the_dog_en() -> None:
    said = "Dr. Hale raised Apoquel from 16mg to 24mg; she'll text me the bloodwork results."
    assert _placed(said, [DOG, STYLE]) == ("merge", "Biscuit (dog)")


def test_a_new_value_of_a_saved_bullet_is_the_bullets_fact_even_when_told_to_the_user() -> None:
    # "just tell me" is a request to the assistant (see test_heuristic_placement_rules_to_the_user),
    # but the dose changed: the dog's section takes it
    said = "Apoquel is now 24mg, just tell me if Biscuit itches again."
    assert _placed(said, [DOG, STYLE]) == ("merge", "Biscuit (dog)")
    zh = "房租从 3200 元涨到 3500 元，涨了就告诉我。"
    assert _placed(zh, [RENT, ZH_STYLE]) == ("merge", "房租")
