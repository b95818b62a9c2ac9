"""A withdrawal and its scope (savenow/compaction/withdrawn.py), in English and Chinese.

The chats are invented for the rule; none comes from an evaluation set. Each rule is checked
with more than one wording and in both languages, so it is about the mechanism, not the words.
"""

from __future__ import annotations

from savenow.compaction import OfflineSummarizer, SessionMessage
from savenow.compaction.withdrawn import object_terms


def chat(*turns: tuple[str, str]) -> list[SessionMessage]:
    return [SessionMessage(id=str(i), role=role, content=text) for i, (role, text) in enumerate(turns)]  # type: ignore[arg-type]


def summarize(messages: list[SessionMessage], previous: str | None = None) -> str:
    return OfflineSummarizer(ratio=1.0).summarize(previous, messages, max_tokens=4000)


def test_the_object_of_a_withdrawal_is_the_noun_it_names():
    assert object_terms("鼓楼那家") == ("鼓楼",)
    assert object_terms("the overnight ferry thing") == ("overnight", "ferry")
    assert object_terms("that") == ()
    assert object_terms("这个方案") == ()  # too general to reach other lines


def test_a_withdrawn_option_leaves_every_earlier_line_that_names_it_zh():
    summary = summarize(
        chat(
            ("user", "我本来想订鼓楼边上的青旅，露台能看夜景，一晚 260"),
            ("assistant", "鼓楼那边晚上比较吵，另外可以看看南站附近的全季，一晚 420。"),
            ("user", "那就订南站的全季吧，有停车位。鼓楼那家不考虑了"),
        )
    )
    assert "露台能看夜景" not in summary and "不考虑" not in summary
    assert "全季" in summary and "420" in summary


def test_a_withdrawn_option_leaves_every_earlier_line_that_names_it_en():
    summary = summarize(
        chat(
            ("user", "I was looking at the overnight ferry to Split, cabins are 140 EUR"),
            (
                "assistant",
                "The overnight ferry only runs on Fridays; the morning catamaran is 60 EUR and daily.",
            ),
            ("user", "ok, forget the overnight ferry, book the catamaran for the 14th"),
        )
    )
    assert "cabins are 140 EUR" not in summary and "forget" not in summary
    assert "catamaran" in summary and "14th" in summary


def test_the_withdrawing_line_keeps_its_replacement_and_what_lies_outside_the_withdrawal():
    zh = summarize(chat(("user", "告警间隔 2h 太吵了，改成 6h 吧，2h 不要了")))
    assert "6h" in zh and "2h 不要了" not in zh
    en = summarize(chat(("user", "Let's keep the nightly job at 03:40; scratch the hourly sync idea.")))
    assert "03:40" in en and "hourly sync" not in en


def test_the_reasons_for_a_withdrawal_go_with_it():
    summary = summarize(chat(("user", "闪送我问了，要提前半天预约，太折腾，闪送就算了")))
    assert "闪送" not in summary and "太折腾" not in summary


def test_a_bare_marker_withdraws_the_clause_before_it():
    zh = summarize(chat(("user", "买一送一利润太薄了，不做了，改成满 200 减 30")))
    assert "满 200 减 30" in zh and "利润太薄" not in zh
    en = summarize(chat(("user", "May 3 is too early, forget it, we go on May 10")))
    assert "May 10" in en and "too early" not in en


def test_a_marker_that_opens_a_message_leaves_the_rest_standing():
    zh = summarize(chat(("user", "算了，木地板留着，只换踢脚线")))
    assert "木地板留着" in zh
    en = summarize(chat(("user", "never mind, keep the old router as the access point for the garage")))
    assert "old router" in en


def test_calculated_is_no_withdrawal_and_drop_table_is_an_action():
    zh = summarize(chat(("assistant", "运费已经算了：每单 12 元，共 36 单。")))
    assert "每单 12 元" in zh
    en = summarize(chat(("user", "drop the staging_events table on db-03 after the export")))
    assert "staging_events" in en


def test_a_withdrawal_in_a_later_round_reaches_the_previous_summary():
    first = summarize(chat(("user", "我打算走高速自驾去婺源，顺便看油菜花，单程 5 小时")))
    assert "自驾" in first
    second = summarize(chat(("user", "还是坐 G1372 次高铁去，省心。自驾不要了")), previous=first)
    assert "油菜花" not in second and "高铁" in second


def test_a_judgement_then_a_change_keeps_only_the_change():
    zh = summarize(chat(("user", "每天早上 6 点同步想了想没必要，改成每周三早上 6 点，反正一周才更新一次")))
    assert "每周三早上 6 点" in zh and "每天早上 6 点" not in zh
    en = summarize(
        chat(("user", "Rotating the logs hourly is overkill, make it daily at 01:00 with 14 kept"))
    )
    assert "daily at 01:00" in en and "hourly" not in en
    kept = summarize(
        chat(("user", "8443 不行，路由器占着 8443，改不了"))
    )  # a judgement with no change in it: nothing is withdrawn, the line stands whole
    assert "路由器占着 8443，改不了" in kept


def test_code_is_no_withdrawal():
    summary = summarize(
        chat(
            ("assistant", "Run `restic forget --keep-daily 7 --keep-monthly 12` nightly on nas-02."),
            ("assistant", "Then: `restic forget --keep-daily 7 --keep-monthly 12 --prune` once a week."),
        )
    )
    assert "--keep-monthly 12" in summary


def test_a_declined_offer_leaves_nothing_and_reaches_no_other_line():
    summary = summarize(
        chat(
            ("assistant", "改法：Settings → Users → Roles，去掉 Admin。"),
            ("assistant", "要不要我顺便导出一份她的阅读记录？"),
            ("user", "不用了"),
        )
    )
    assert "Settings → Users → Roles" in summary and "阅读记录" not in summary


def test_other_ways_of_taking_an_option_back():
    zh = summarize(
        chat(
            ("user", "我看了下湖边那家民宿，带院子，一晚 520"),
            ("user", "还是住市区的亚朵吧，离地铁近。湖边那家就不订了"),
        )
    )
    assert "带院子" not in zh and "亚朵" in zh
    en = summarize(
        chat(
            ("user", "What about the rooftop bar for the team dinner, 45 EUR a head?"),
            ("user", "the rooftop bar is off the table, book Trattoria Lupa for 12 people"),
        )
    )
    assert "45 EUR" not in en and "Trattoria Lupa" in en


def test_an_object_many_lines_name_is_too_general_to_reach_them():
    summary = summarize(
        chat(
            ("user", "今天把 nas-01 的 smart 报告导出来"),
            ("user", "今天顺便把 /srv/backup 的快照清理一下"),
            ("user", "今天记得续费 example.org 域名"),
            ("user", "今天要把 VPN 证书换掉，到期日 12月20日"),
            ("user", "今天就不弄了"),
        )
    )
    assert "nas-01" in summary and "/srv/backup" in summary


def test_a_single_letter_is_no_object():
    assert object_terms("the y") == ()
    assert object_terms("plan 3") == ()
    assert object_terms("option 3 lite") == ("3", "lite")
