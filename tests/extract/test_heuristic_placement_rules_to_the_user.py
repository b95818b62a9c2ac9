"""Placement: a rule about how the assistant answers or when it tells the user ("No more emojis",
"只要涨了就告诉我") is about the assistant, not a detail of the subject the chat is on: it never merges
under the chat's home; a section of preferences takes it, else it is added (two sections each)."""

from __future__ import annotations

from savenow.extract.heuristic.placement import _to_the_user
from savenow.extract.heuristic.titles import about_replies
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

DOG = MemorySection("Biscuit (dog)", ("Apoquel 16mg once a day with breakfast.", "Vet: Dr. Hale, Thursdays."))
STYLE = MemorySection(
    "Reply style", ("Answers short, conclusion first.", "When something fails, let me know in the group.")
)
GARDEN = MemorySection("Garden", ("Tomatoes in the south bed.",))


def _dog_chat():
    return chat(
        "u: Biscuit's Apoquel dose went up, the vet says 16mg is not enough 🐶🐶",
        "a: 🐕 Got it! 🎉 What did Dr. Hale prescribe? 💊",
        "u: 24mg once a day with breakfast. And no more emojis in your replies please.",
        "a: Noted: Apoquel 24mg once a day with breakfast. No more emojis.",
    )


def _emoji_rule(sections: list[MemorySection]):
    notes = [n for n in saved(extract(_dog_chat(), sections)) if "emoji" in text_of(n)]
    assert len(notes) == 1, [(n.title, n.bullets, n.action) for n in saved(extract(_dog_chat(), sections))]
    return notes[0]


def test_a_reply_rule_goes_under_the_preferences_not_the_dog_en() -> None:
    note = _emoji_rule([DOG, STYLE])
    assert (note.action, note.merge_target_title) == ("merge", "Reply style")


def test_a_reply_rule_is_added_when_no_section_holds_preferences_en() -> None:
    assert _emoji_rule([DOG, GARDEN]).action == "add"


DISKS = MemorySection("Scrutiny", ("Scrutiny collector 每天 03:00 跑，盯 vault 的 4 块盘。",))
PREFERENCES = MemorySection("通知偏好", ("磁盘有异常就告诉我，不用发邮件。",))
NETWORK = MemorySection("网络", ("路由器 192.168.1.1。",))


def _disk_rule(sections: list[MemorySection]):
    messages = chat(
        "u: Scrutiny 的 collector 昨晚又报了一块盘 Reallocated_Sector_Ct 从 0 涨到 8",
        "a: 这个值涨说明盘在换坏扇区，建议尽快备份。",
        "u: 以后 Reallocated_Sector_Ct 只要涨了就告诉我，不管 Scrutiny 判没判 failed",
        "a: 好的，以后 Reallocated_Sector_Ct 只要比前一天多就告诉你。",
    )
    notes = [n for n in saved(extract(messages, sections)) if "告诉" in text_of(n)]
    assert len(notes) == 1, [(n.title, n.bullets, n.action) for n in saved(extract(messages, sections))]
    return notes[0]


def test_a_tell_me_rule_goes_under_the_preferences_not_the_disks_zh() -> None:
    note = _disk_rule([DISKS, PREFERENCES])
    assert (note.action, note.merge_target_title) == ("merge", "通知偏好")


def test_a_tell_me_rule_is_added_when_no_section_holds_preferences_zh() -> None:
    assert _disk_rule([DISKS, NETWORK]).action == "add"


def test_what_counts_as_a_rule_for_the_assistant() -> None:
    assert _to_the_user("No more emojis.")
    assert _to_the_user("If the backup fails, post it to the Servers topic, not my DMs.")
    assert _to_the_user("只要涨了就告诉我。")
    assert _to_the_user("好的，以后涨了就告诉你。")  # the assistant saying it back
    assert not _to_the_user("告警发到飞书群。")  # where alerts go is the monitoring's own setting
    assert not _to_the_user("Tell Maya the deploy is done.")


def test_someone_else_telling_the_user_is_no_rule_for_the_assistant_zh() -> None:
    assert not _to_the_user("房东通知我下个月起房租每月涨到 3500 元。")
    assert not _to_the_user("他会告诉我结果。")
    assert _to_the_user("涨了就告诉我。")
    assert _to_the_user("记得通知我。")
    assert _to_the_user("以后告诉我一声。")
    assert _to_the_user("房租从 3200 元涨到 3500 元，涨了就告诉我。")  # a request (placement still merges it)


def test_someone_else_telling_the_user_is_no_rule_for_the_assistant_en() -> None:
    assert not _to_the_user(
        "Dr. Hale raised Apoquel from 16mg to 24mg; she'll text me the bloodwork results."
    )
    assert not _to_the_user("Dr. Hale will let me know if it changes.")
    assert _to_the_user("Let me know if it changes.")
    assert _to_the_user("If the backup fails, tell me when it is fixed.")
    assert _to_the_user("If the backup fails, please ping me.")
    assert _to_the_user("Apoquel is now 24mg, just tell me if Biscuit itches again.")


def test_the_reply_detector_is_public_for_placement_zh() -> None:
    assert about_replies("以后回复先给结论。")
    assert not about_replies("密码私聊发，不在群里回复。")  # a rule about passwords


def test_the_reply_detector_is_public_for_placement_en() -> None:
    assert about_replies("No more emojis in your replies.")
    assert not about_replies("Send the weekly emails to Maya.")


MINECRAFT = MemorySection(
    "Minecraft server", ("Paper 1.21 on mc-01, port 25565.", "Nightly backup at 04:00 to /srv/backups.")
)
KIDS = MemorySection("Kids", ("Screen time ends at 20:00.",))


def _backup_rule(sections: list[MemorySection]):
    messages = chat(
        "u: the Minecraft server backup on mc-01 failed last night, /srv/backups was full",
        "a: I pruned the backups older than 14 days; the 04:00 backup ran fine now.",
        "u: thanks. From now on if the backup or anything else on the servers fails, let me know in the Servers topic, not my DMs.",
        "a: Will do: failures go to the Servers topic, not your DMs.",
    )
    notes = [n for n in saved(extract(messages, sections)) if "dms" in text_of(n)]
    assert len(notes) == 1, [(n.title, n.bullets, n.action) for n in saved(extract(messages, sections))]
    return notes[0]


def test_a_let_me_know_rule_is_added_beside_the_server_en() -> None:
    assert _backup_rule([MINECRAFT, KIDS]).action == "add"


def test_a_let_me_know_rule_goes_under_the_preferences_not_the_server_en() -> None:
    note = _backup_rule([MINECRAFT, KIDS, STYLE])
    assert (note.action, note.merge_target_title) == ("merge", "Reply style")
