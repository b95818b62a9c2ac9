"""Placement by the KIND of fact: a section whose heading names a kind (日程 / schedule, 规则 / rules)
takes a note of that kind; the section named after the chat's system beats a component's section."""

from __future__ import annotations

from savenow.extract.heuristic import factkinds
from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

FAMILY_SCHEDULE_ZH = MemorySection(
    "家里日程",
    ("小宝周二、周五 17:00 放学。", "周日上午 10:00–11:00 围棋课，在少年宫。"),
)
NOTIFY_RULES_ZH = MemorySection("通知规则", ("默认提前半小时通知。", "家里的通知都发「家」频道，别混。"))


def test_a_weekly_slot_merges_into_a_schedule_section_zh() -> None:
    messages = chat(
        "u: 跟你说下小宝书法课的事",
        "a: 你说。",
        "u: 书法老师定了，每周三下午 16:30 到 17:30，在文化宫二楼上",
        "a: 好：小宝书法课，每周三 16:30–17:30，文化宫二楼，下周开始。",
        "u: 嗯",
    )
    notes = [
        n for n in saved(extract(messages, [FAMILY_SCHEDULE_ZH, NOTIFY_RULES_ZH])) if "16:30" in text_of(n)
    ]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "家里日程"


def test_a_rule_exception_merges_into_a_rules_section_zh() -> None:
    messages = chat(
        "u: 书法课的通知提前一小时发我，路上要 40 分钟，不是半小时",
        "a: 明白，书法课是例外：提前一小时通知，其他通知还是默认提前半小时。",
        "u: 对",
    )
    notes = [
        n for n in saved(extract(messages, [FAMILY_SCHEDULE_ZH, NOTIFY_RULES_ZH])) if "一小时" in text_of(n)
    ]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "通知规则"


TEAM_CALENDAR = MemorySection(
    "Team calendar",
    ("Standup every weekday at 09:30 in the small room.", "Retro every other Friday at 16:00."),
)
LAB = MemorySection("Lab machines", ("`gpu-01` has two A6000 cards.",))


def test_a_weekly_slot_merges_into_a_calendar_section_en() -> None:
    messages = chat(
        "u: new recurring thing: the design review is every Tuesday at 14:00 in room B",
        "a: Got it: design review every Tuesday at 14:00 in room B.",
        "u: yes",
    )
    notes = [n for n in saved(extract(messages, [LAB, TEAM_CALENDAR])) if "14:00" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Team calendar"


def test_heading_kind_alone_without_the_note_kind_does_not_merge_en() -> None:
    assert factkinds.kind_affinity(frozenset(), "Team calendar", TEAM_CALENDAR.bullets) == 0.0
    assert factkinds.kind_affinity(frozenset({factkinds.SCHEDULE}), "Lab machines", LAB.bullets) == 0.0
    rule = frozenset({factkinds.RULE})
    assert factkinds.kind_affinity(rule, "通知规则", NOTIFY_RULES_ZH.bullets) == 2.0


JELLYFIN = MemorySection(
    "Jellyfin", ("Jellyfin runs on `media-01`, compose in `/opt/jellyfin`, web port 8096.",)
)
GPU = MemorySection(
    "GPU", ("`media-01` has an Intel Arc A380; the host uses the `intel-media-va-driver` package.",)
)


def test_the_system_the_chat_is_about_beats_a_component_section_en() -> None:
    messages = chat(
        "u: jellyfin transcoding is pegging the CPU, the GPU seems idle",
        "a: Check that the Jellyfin container sees /dev/dri: `docker exec jellyfin ls /dev/dri`.",
        "u: it is empty",
        "a: The compose file in `/opt/jellyfin` has no devices entry. Add `devices: [/dev/dri:/dev/dri]` and recreate.",
        "u: done, jellyfin transcodes on the Arc now, works",
        "a: The intel driver on the host was fine all along; the Arc just was not passed through.",
        "u: from now on when upgrading jellyfin never overwrite the compose file, diff it and keep the devices line",
        "a: Noted: when upgrading Jellyfin, diff the compose file and keep the devices line.",
    )
    notes = [n for n in saved(extract(messages, [JELLYFIN, GPU])) if "diff" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Jellyfin"


def test_details_of_one_lesson_are_one_note_zh() -> None:
    messages = chat(
        "u: 小宝书法课定了，每周三下午 16:30 到 17:30，在王老师家，文化宫对面",
        "a: 好：小宝书法课，每周三 16:30–17:30，王老师家（文化宫对面），下周开始。学费呢？",
        "u: 一节 150，按月付给王老师",
        "a: 记下了：150 元/节，按月付给王老师。",
        "u: 嗯",
    )
    notes = saved(extract(messages, [FAMILY_SCHEDULE_ZH, NOTIFY_RULES_ZH]))
    assert len(notes) == 1
    assert "16:30" in text_of(notes[0]) and "150" in text_of(notes[0])
    assert notes[0].bullets[0].startswith("小宝书法课")  # in the order they were handed over
    assert notes[0].action == "merge" and notes[0].merge_target_title == "家里日程"


def test_details_of_one_lesson_are_one_note_en() -> None:
    messages = chat(
        "u: swim class is booked: every Saturday at 09:00 at the Eastside pool",
        "a: Got it: swim class every Saturday at 09:00 at the Eastside pool.",
        "u: the coach wants $25 per lesson, paid monthly at the pool desk",
        "a: Noted: $25 per lesson, paid monthly at the pool desk.",
    )
    notes = saved(extract(messages, [LAB, TEAM_CALENDAR]))
    assert len(notes) == 1
    assert "09:00" in text_of(notes[0]) and "$25" in text_of(notes[0])
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Team calendar"


def test_two_different_subjects_handed_over_stay_two_notes_en() -> None:
    messages = chat(
        "u: the printer is at 192.168.1.40",
        "a: Got it: the printer is at 192.168.1.40.",
        "u: and the wifi guest password is in the `guest-wifi` note in 1Password",
        "a: Noted: guest wifi password lives in the `guest-wifi` 1Password note.",
    )
    notes = saved(extract(messages, [LAB]))
    assert len(notes) == 2


def test_a_one_line_json_fix_after_a_fix_sentence_is_kept_en() -> None:
    from savenow.extract.heuristic import signals

    text = (
        "Fix: switch the bucket to this lifecycle rule:\n"
        '```json\n[{"fileNamePrefix": "", "daysFromHidingToDeleting": 1, "daysFromUploadingToHiding": null}]\n```'
    )
    items = signals.sentence_items(text)
    assert "daysFromHidingToDeleting" in items[-1][1]


def test_an_ini_header_alone_is_still_not_a_fix_line() -> None:
    from savenow.extract.heuristic import signals

    items = signals.sentence_items("修法：\n```\n[Service]\n```")
    assert "[Service]" not in items[-1][1]


def test_hosts_two_sections_share_do_not_decide_the_topic_home_en() -> None:
    from savenow.extract.heuristic.placement import topic_home

    sync = MemorySection("Sync", ("syncthing between `orion` and `vega`, folder `/srv/sync`.",))
    hosts = MemorySection("Hosts", ("`orion`: NAS, Europe/Berlin.", "`vega`: laptop."))
    texts = [
        "syncthing on orion says folder /srv/sync is out of sync with vega",
        "orion and vega both show the same conflict files; syncthing versioning is off",
        "vega again, and orion too",
    ]
    assert topic_home(texts, [sync, hosts]) is sync


def test_a_proposal_the_user_agrees_to_is_a_decision_en() -> None:
    messages = chat(
        "u: the snapshots pile up, I want weekly ones kept for two months",
        "a: Then: `zfs-auto-snapshot --keep-weekly 8` on tank, and drop the hourly job.",
        "u: yes do that",
        "a: Plan: `zfs-auto-snapshot --keep-weekly 8` nightly on tank, hourly job removed.",
        "u: done",
    )
    notes = [n for n in saved(extract(messages, [LAB])) if "--keep-weekly 8" in text_of(n)]
    assert len(notes) == 1
    # The subject names it; a kind label ("… decision") adds nothing a reader keeps (issue 12).
    assert notes[0].title == "zfs-auto-snapshot"


def test_a_proposal_the_user_agrees_to_is_a_decision_zh() -> None:
    messages = chat(
        "u: 快照太多了，每周的想留两个月",
        "a: 那就：`zfs-auto-snapshot --keep-weekly 8`，每小时那个任务去掉。",
        "u: 就这么办",
        "a: 计划：每晚在 tank 上跑 `zfs-auto-snapshot --keep-weekly 8`，去掉每小时任务。",
    )
    notes = [n for n in saved(extract(messages, [LAB])) if "--keep-weekly 8" in text_of(n)]
    assert len(notes) == 1
