"""Placement by the part of the chat a note came from (local topic), in a chat that covers two sections."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

GARDEN = MemorySection(
    "Garden",
    ("The vegetable beds are watered by the `drip-zone-2` timer; the garden shed key is in the blue box.",),
)
CAR = MemorySection("Car", ("The car is a 2019 Corolla; service at Lakeside Motors every 15,000 km.",))


def _garden_then_car(*middle: str) -> list:
    return chat(
        "u: the garden beds look dry, is the drip-zone-2 timer still on the old schedule?",
        "a: Yes, `drip-zone-2` still runs 06:00 for 20 minutes. I moved it to 05:30 for 30 minutes for the heat.",
        "u: good. the garden needs it this week",
        *middle,
        "u: ok, the car now. is the Corolla due at Lakeside Motors soon?",
        "a: The Corolla is at 14,200 km, so the service at Lakeside Motors is due in about 800 km.",
        "u: fine, book it for next month",
        "a: I'll remind you next month.",
    )


def test_user_rule_without_names_merges_into_the_section_the_chat_was_on_en() -> None:
    messages = _garden_then_car(
        "u: and from now on never water after 20:00",
        "a: Noted: from now on never water after 20:00.",
    )
    notes = [n for n in saved(extract(messages, [GARDEN, CAR])) if "20:00" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Garden"


def test_a_word_of_the_other_section_gives_way_to_the_part_of_the_chat_en() -> None:
    # "car" is a heading word of the other section, but the rule was set while the chat was on the garden.
    messages = _garden_then_car(
        "u: and from now on never water after 20:00, the slugs love wet beds at night. park the car hose on the left",
        "a: Noted: no watering after 20:00, and the car hose stays on the left.",
    )
    notes = [n for n in saved(extract(messages, [GARDEN, CAR])) if "20:00" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Garden"


def test_user_rule_naming_its_own_system_is_added_en() -> None:
    messages = _garden_then_car(
        "u: and from now on every automation change goes through Zigbee2MQTT first",
        "a: Noted: every automation change goes through Zigbee2MQTT first.",
    )
    notes = [n for n in saved(extract(messages, [GARDEN, CAR])) if "zigbee2mqtt" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "add"


def test_heading_word_of_a_section_the_chat_never_covers_still_merges_en() -> None:
    backups = MemorySection("Backups", ("Nightly restic run at 02:30 to the B2 bucket.",))
    messages = chat(
        "u: the garden beds look dry, is the drip-zone-2 timer still on the old schedule?",
        "a: Yes, `drip-zone-2` still runs 06:00 for 20 minutes.",
        "u: good. the garden needs it this week",
        "u: also from now on backups must finish before 06:00",
        "a: Noted: backups must finish before 06:00.",
    )
    notes = [n for n in saved(extract(messages, [GARDEN, backups])) if "before 06:00" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].merge_target_title == "Backups"


KIDS = MemorySection("孩子日程", ("孩子的课外班都记在共享日历「家里」上，游泳课周六上午。",))
TRIPS = MemorySection("出行", ("常用机场是虹桥，出差优先坐高铁。",))


def _kids_then_trips(*middle: str) -> list:
    return chat(
        "u: 孩子日程这周有变化，游泳课改到周日上午了",
        "a: 好，孩子日程里的游泳课已改成周日上午 9 点，记在共享日历「家里」上。",
        "u: 钢琴课还是周三",
        *middle,
        "u: 说下出行，下周去北京出差",
        "a: 出行按之前的：优先高铁，从虹桥走的话……其实北京是北京南站，高铁 4.5 小时。",
        "u: 好 先不订",
        "a: 好的，先不订。",
    )


def test_user_rule_without_names_merges_into_the_section_the_chat_was_on_zh() -> None:
    messages = _kids_then_trips(
        "u: 以后晚上八点以后不要给孩子排任何课",
        "a: 记下了：晚上八点以后不给孩子排课。",
    )
    notes = [n for n in saved(extract(messages, [KIDS, TRIPS])) if "八点" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "孩子日程"


def test_user_rule_naming_its_own_system_is_added_zh() -> None:
    messages = _kids_then_trips(
        "u: 以后所有提醒都用 Todoist 发，不要再用短信",
        "a: 记下了：以后提醒都走 Todoist，不用短信。",
    )
    notes = [n for n in saved(extract(messages, [KIDS, TRIPS])) if "todoist" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "add"


# --------------------------------------------------------------------------- a conventions section as the topic home

CONVENTIONS_ZH = MemorySection(
    "Go 约定",
    ("新服务统一 Go 1.22。", "内部模块走私有代理 `https://goproxy.corp.lan`，CI 账号在 1Password「Go CI」。"),
)


def test_rule_in_a_chat_about_a_conventions_section_merges_there_zh() -> None:
    messages = chat(
        "u: go mod tidy 拉不到 corp/authz，报 404",
        "a: 私有模块要设 `GOPRIVATE`。现在 `https://goproxy.corp.lan` 是怎么配的？",
        "u: 只设了 GOPROXY=https://goproxy.corp.lan",
        "a: 加上 `GONOSUMDB=corp/*`，否则校验和数据库查不到私有模块。",
        "u: 好了 能拉了",
        "a: 以后 `GOFLAGS=-mod=mod` 写在 CI 的环境里，`replace` 指令一律不进主分支。",
        "u: 同意，就这么办",
    )
    notes = [n for n in saved(extract(messages, [CONVENTIONS_ZH])) if "replace" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Go 约定"


CONVENTIONS_EN = MemorySection(
    "Frontend conventions",
    (
        "New apps use Node 22 and pnpm.",
        "Private packages come from `https://npm.corp.lan`, credentials in 1Password.",
    ),
)


def test_rule_in_a_chat_about_a_conventions_section_merges_there_en() -> None:
    messages = chat(
        "u: frontend build: on Node 22 pnpm install can't find the private package @corp/ui, 404 from "
        "https://npm.corp.lan",
        "a: Private packages need the scope mapped: `@corp:registry=https://npm.corp.lan` in `.npmrc`, "
        "with the credentials from 1Password.",
        "u: done, installs now",
        "a: From now on the `.npmrc` scope line goes in the repo template, and tokens always stay in `NPM_TOKEN`.",
        "u: agree, do it",
    )
    notes = [n for n in saved(extract(messages, [CONVENTIONS_EN])) if "npm_token" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Frontend conventions"
