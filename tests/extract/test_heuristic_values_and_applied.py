"""Values a chat settles on: commands the user ran, amounts taken down, values withdrawn, changed values placed."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of


def test_a_command_the_user_reports_ran_and_working_later_is_kept_en() -> None:
    messages = chat(
        "u: the staging site shows the old build again",
        "a: The CDN still serves the cached bundle. Purge it with `fastly purge --all --service staging-web` "
        "and the next request fetches the new one.",
        "u: hmm is that safe during the day",
        "a: Yes, it only drops the cache; the origin takes the load for a minute.",
        "u: ran fastly purge --all on staging-web, works, the new build is there",
        "a: Good.",
    )
    notes = [n for n in saved(extract(messages)) if "fastly purge" in text_of(n)]
    assert len(notes) == 1


def test_one_shared_word_is_not_enough_to_call_a_command_applied_en() -> None:
    messages = chat(
        "u: postgres upgrade on db-2 today",
        "a: Sure. Stop the old unit first: `systemctl stop postgresql@13-main`.",
        "u: ok",
        "u: done. postgres is on 15 now, all good",
        "a: Nice.",
    )
    assert not [n for n in saved(extract(messages)) if "systemctl stop" in text_of(n)]


def test_a_setting_whose_value_is_a_url_is_the_fix_not_a_pasted_link_zh() -> None:
    messages = chat(
        "u: docs-site 的 pip install 一直超时",
        "a: 应该是直连 PyPI 太慢。给 docs-site 单独配镜像，在项目根目录建 `pip.conf`：\n"
        "```\nindex-url=https://mirrors.example.cn/pypi/simple\n```\n这样只影响这个项目。",
        "u: 好了 装完只要 20 秒",
        "a: 太好了！",
    )
    notes = [n for n in saved(extract(messages)) if "mirrors.example.cn" in text_of(n)]
    assert len(notes) == 1


SHOP = MemorySection("小铺发货规则", ("快递：圆通，每天 15:00 前付款当天发。", "满 88 包邮。"))


def test_an_acknowledged_new_amount_is_kept_and_merges_into_the_section_it_changes_zh() -> None:
    messages = chat(
        "u: 运费涨了，我决定包邮门槛改成满 118，88 不划算了",
        "a: 好的，明白了：包邮门槛从满 88 调到满 118。",
        "u: 嗯",
    )
    notes = [n for n in saved(extract(messages, [SHOP])) if "118" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "小铺发货规则"


def test_a_temporary_amount_taken_down_is_not_a_note_zh() -> None:
    messages = chat(
        "u: 国庆那几天临时搞个满 59 包邮",
        "a: 好的，国庆期间满 59 包邮，之后恢复原来的门槛。",
        "u: 对",
    )
    assert not [n for n in saved(extract(messages, [SHOP])) if "59" in text_of(n)]


def test_a_value_taken_down_then_corrected_is_not_kept_en() -> None:
    messages = chat(
        "u: new repo for the invoicing tool, node please",
        "a: Which Node version should it pin?",
        "u: 18",
        "a: OK, `.nvmrc` with 18.",
        "u: actually no, 22, I want the newer fetch",
        "a: Sure: `.nvmrc` with 22 and `engines.node` set to `>=22` in package.json.",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert not [t for t in texts if "18" in t and "22" not in t]


def test_wait_x_is_taken_withdraws_the_value_the_plan_named_zh() -> None:
    messages = chat(
        "u: mq-01 上的 rabbitmq 管理端口要改，15672 老被扫",
        "a: 改 `/etc/rabbitmq/rabbitmq.conf` 里的 `management.tcp.port` 然后重启就行。改成多少？",
        "u: 先改成 15680 吧",
        "a: 可以：`management.tcp.port = 15680`，然后 `sudo systemctl restart rabbitmq-server`。",
        "u: 等下，15680 是 exporter 在用的",
        "a: 那就不能用 15680。用 15690，是空的。",
        "u: 行，最终就 15690",
        "u: 改完了，页面能打开",
        "a: 好的。那现在 mq-01 的管理端口是 `15690`，`management.tcp.port = 15690`。",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("15690" in t for t in texts)
    assert not any("15680" in t for t in texts)


MEDS = MemorySection("用药", ("氨氯地平 5mg，每天早饭后一片。", "阿司匹林 100mg，睡前一片。"))


def test_a_new_dose_is_neither_a_duplicate_nor_chit_chat_zh() -> None:
    messages = chat(
        "u: 医生把氨氯地平加量了 改成 10mg 还是早饭后",
        "a: 好的，明白了：氨氯地平从 5mg 调整到 10mg，每天早饭后一片。",
        "u: 嗯",
    )
    notes = [n for n in saved(extract(messages, [MEDS])) if "10mg" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "用药"


TRIP = MemorySection(
    "Porto trip (May)",
    ("Flights: TP1331 LIS→OPO, 2027-05-02 08:10; return TP1336 on 2027-05-06.",),
)


def test_a_new_time_for_a_saved_flight_merges_and_unchanged_is_reported_as_skip_en() -> None:
    messages = chat(
        "u: TAP moved my porto flight",
        "a: What's the new time?",
        "u: TP1331 now leaves 11:25 instead of 08:10, same day",
        "a: Okay, so TP1331 LIS→OPO on 2027-05-02, now departing 11:25.",
        "u: return is the same, TP1336 on the 6th",
        "a: Got it, TP1336 on 2027-05-06, unchanged.",
    )
    entries = extract(messages, [TRIP])
    changed = [n for n in saved(entries) if "11:25" in text_of(n)]
    assert len(changed) == 1 and changed[0].merge_target_title == "Porto trip (May)"
    assert not [n for n in saved(entries) if "tp1336" in text_of(n) and "11:25" not in text_of(n)]


CLASSES = MemorySection("课外班", ("钢琴课：每周二 18:00，文化宫二楼，李老师",))


def test_a_new_time_of_day_for_a_saved_routine_merges_into_its_section_zh() -> None:
    messages = chat(
        "u: 钢琴课改时间了",
        "a: 好的，改到什么时候？",
        "u: 老师说下周开始改成周三 18:30，还是文化宫二楼",
        "a: 明白了。那以后是每周三 18:30，文化宫二楼。",
        "u: 对",
    )
    notes = [n for n in saved(extract(messages, [CLASSES])) if "18:30" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "课外班"


def test_the_steps_of_one_plan_are_one_note_zh() -> None:
    messages = chat(
        "u: 项目文档要换成 mkdocs，组里统一了",
        "a: 好的，明白了。mkdocs 用 material 主题吗？",
        "u: 对 material",
        "a: 好的。迁移步骤：\n1. `pip install mkdocs-material`\n2. 把 `docs/` 下的 `.rst` 转成 `.md`\n"
        "3. 在 `mkdocs.yml` 里设 `theme: material`\n4. 本地预览用 `mkdocs serve`",
        "u: 好 弄完了",
    )
    notes = [n for n in saved(extract(messages)) if "mkdocs" in text_of(n)]
    steps = [n for n in notes if "mkdocs.yml" in text_of(n) or "mkdocs serve" in text_of(n)]
    assert len(steps) <= 1


KYOTO = MemorySection("京都行程（3月）", ("去程：MU515 PVG→KIX，2027-03-08。",))
OFFICE = MemorySection("公司报销", ("发票抬头写公司全称。",))


def test_a_note_naming_the_headings_subject_in_the_other_language_merges_there() -> None:
    messages = chat(
        "u: 京都的酒店订好了",
        "a: 太好了！订的哪家？",
        "u: Hotel Granvia Kyoto，3月8到11号三晚，确认号 4471902，含早",
        "a: 好的，记下了：Hotel Granvia Kyoto，3 月 8–11 日三晚含早，确认号 4471902。",
        "u: 嗯",
    )
    notes = [n for n in saved(extract(messages, [KYOTO, OFFICE])) if "4471902" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "京都行程（3月）"
