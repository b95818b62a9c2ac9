"""Placement: someone else telling the user ("房东通知我…", "she'll text me the results", "Dr. Hale will
let me know") is no rule for the assistant: the note is the subject's fact and merges under its section
(review of round fourteen, item 1). A request said to the assistant still is one."""

from __future__ import annotations

from savenow.extract.heuristic.placement import _to_the_user, place
from savenow.models import MemorySection
from savenow.text.identifiers import identifiers

RENT = MemorySection("房租", ("房租每月 3200 元，每月 5 号前转给房东。",))
DOG = MemorySection("Biscuit (dog)", ("Apoquel 16mg once a day with breakfast.", "Vet: Dr. Hale, Thursdays."))
STYLE = MemorySection("Reply style", ("Answers short, conclusion first.",))
ZH_STYLE = MemorySection("通知偏好", ("磁盘有异常就告诉我。",))


class _Said:
    def __init__(self, bullet: str) -> None:
        self.bullet = bullet
        self.ids = frozenset(identifiers(bullet))


def _placed(text: str, sections: list[MemorySection]) -> tuple[str, str | None]:
    placement = place([_Said(text)], frozenset(identifiers(text)), set(), False, sections)
    assert placement is not None
    return placement.action, placement.section_title


def test_a_landlord_telling_the_user_is_no_rule_for_the_assistant_zh() -> None:
    assert not _to_the_user("房东通知我下个月起房租每月涨到 3500 元。")
    assert not _to_the_user("他会告诉我结果。")
    assert _to_the_user("涨了就告诉我。")
    assert _to_the_user("记得通知我。")
    assert _to_the_user("以后告诉我一声。")


def test_a_new_rent_told_by_the_landlord_merges_under_the_rent_zh() -> None:
    assert _placed("房东通知我下个月起房租每月涨到 3500 元。", [RENT, ZH_STYLE]) == ("merge", "房租")


def test_the_vet_telling_the_user_is_no_rule_for_the_assistant_en() -> None:
    assert not _to_the_user("Dr. Hale raised Apoquel from 16mg to 24mg; she'll text me the bloodwork results.")
    assert not _to_the_user("Dr. Hale will let me know if it changes.")
    assert _to_the_user("Let me know if it changes.")
    assert _to_the_user("If the backup fails, tell me when it is fixed.")
    assert _to_the_user("If the backup fails, please ping me.")


def test_a_new_dose_the_vet_will_text_about_merges_under_the_dog_en() -> None:
    said = "Dr. Hale raised Apoquel from 16mg to 24mg; she'll text me the bloodwork results."
    assert _placed(said, [DOG, STYLE]) == ("merge", "Biscuit (dog)")


def test_a_new_value_of_a_saved_bullet_is_the_bullets_fact_even_when_told_to_the_user() -> None:
    # "just tell me" is a request to the assistant, but the dose changed: the dog's section takes it
    said = "Apoquel is now 24mg, just tell me if Biscuit itches again."
    assert _to_the_user(said)
    assert _placed(said, [DOG, STYLE]) == ("merge", "Biscuit (dog)")
    zh = "房租从 3200 元涨到 3500 元，涨了就告诉我。"
    assert _to_the_user(zh)
    assert _placed(zh, [RENT, ZH_STYLE]) == ("merge", "房租")
