"""Topic home for Chinese sections: the Chinese words of a section's bullets the chat uses show what
the chat is about (a Chinese section has no identifiers or capitalized names to be recognized by);
a note that updates a saved bullet's value, or names the section's subject, is not pulled away by
the part of the chat it came from."""

from __future__ import annotations

from savenow.extract.heuristic.placement import topic_home
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

LESSON = MemorySection(
    "小宇游泳课",
    (
        "教练：王教练（王芳），场馆在体育中心 2 楼「海豚游泳馆」。",
        "每周日上午 9:00-9:45，一节 180 元，按 8 节一次性交。",
    ),
)
SCHOOL = MemorySection("小宇学校", ("班主任李老师，家长群里有事找她。",))


def _swim_chat(*extra: str) -> list:
    return chat(
        "u: 小宇的游泳课有变化，王教练刚给我发消息了",
        "a: 说了什么？",
        "u: 她说海豚游泳馆下个月装修，每周日的课挪到体育中心 3 楼的副馆，剩下的课时一次性顺延",
        "a: 好的，场馆临时换到副馆。",
        *extra,
    )


def test_the_chinese_words_of_a_sections_bullets_make_it_the_chats_home_zh() -> None:
    texts = [m.text for m in _swim_chat()]
    home = topic_home(texts, [LESSON, SCHOOL])
    assert home is not None and home.title == "小宇游泳课"


def test_a_rule_of_a_chinese_home_merges_there_not_as_a_new_section_zh() -> None:
    messages = _swim_chat(
        "u: 还有她说以后每次课前要在家练憋气 5 分钟",
        "a: 明白：以后每次游泳课前在家练憋气至少 5 分钟。",
    )
    notes = [n for n in saved(extract(messages, [LESSON, SCHOOL])) if "憋气" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "小宇游泳课"


def test_one_chinese_word_in_common_is_no_home_zh() -> None:
    # "家长" alone is in the school section: one word is not what the chat is about
    texts = ["家长会定在周五", "好的"]
    assert topic_home(texts, [LESSON, SCHOOL]) is None


MEDS = MemorySection("用药", ("二甲双胍 500mg，一天两次，早晚饭后吃。",))
CLINIC = MemorySection("医院", ("市一院内分泌科，陈医生，周二、周五上午门诊。",))


def test_a_new_value_of_a_saved_bullet_stays_with_that_bullet_zh() -> None:
    # the chat was on the clinic just before, but the note changes the dose the 用药 section holds
    messages = chat(
        "u: 今天去市一院复查了，陈医生周五上午的门诊人超多",
        "a: 辛苦了，内分泌科一直人多。陈医生怎么说？",
        "u: 二甲双胍从 500mg 调到 850mg，还是一天两次，早晚饭后",
        "a: 好的，记下了：二甲双胍从 500mg 调整到 850mg，一天两次，早晚饭后。",
    )
    notes = [n for n in saved(extract(messages, [MEDS, CLINIC])) if "850mg" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].merge_target_title == "用药"


PHOTOS = MemorySection("Immich", ("Immich runs on `nas-02`, compose in `/opt/immich`, web port 2283.",))
GPU = MemorySection(
    "GPU", ("`nas-02` has an RTX 3060; the host driver is the distro's `nvidia-driver` package.",)
)


def test_a_note_naming_the_sections_subject_is_not_pulled_to_the_local_topic_en() -> None:
    messages = chat(
        "u: the GPU on nas-02 shows 0% during face detection",
        "a: The host driver and nvidia-driver look fine; the GPU is idle because the ML image is the CPU one.",
        "u: switched the image to the -cuda tag, the GPU is busy now, works",
        "a: Good. From now on, when you upgrade Immich, keep the `-cuda` image tag in `docker-compose.yml`.",
        "u: ok",
    )
    notes = [n for n in saved(extract(messages, [PHOTOS, GPU])) if "-cuda" in text_of(n)]
    assert notes and all(n.merge_target_title == "Immich" for n in notes)
