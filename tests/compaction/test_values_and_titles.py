"""Sixth rules pass (issue 15): values the summary missed or cut apart, in English and Chinese.

The chats here are invented for the rule; none comes from an evaluation set.
"""

from __future__ import annotations

from savenow.compaction.chatsignals import sentences
from savenow.compaction.summary import verbatim_ids

from .test_summary_rules import chat, summarize

# ---------------------------------------------------------------- a title's full stop ends no sentence


def test_a_title_full_stop_does_not_split_a_sentence():
    assert sentences("The vet is Dr. Moreau, call him on Monday. Then book it.") == [
        "The vet is Dr. Moreau, call him on Monday.",
        "Then book it.",
    ]
    assert sentences("外婆下周去看 Dr. Lim 复诊，带上化验单") == ["外婆下周去看 Dr. Lim 复诊，带上化验单"]


def test_a_person_with_a_title_keeps_their_number_in_the_summary():
    en = summarize(chat(("user", "the florist changed, contact is Mrs. Varga +36 30 412 7781")))
    assert "Mrs. Varga +36 30 412 7781" in en
    zh = summarize(chat(("user", "场地换了，联系人是 Mr. Tan +65 6344 1029")))
    assert "Mr. Tan +65 6344 1029" in zh


# ---------------------------------------------------------------- a phone number is one value


def test_a_phone_number_in_groups_is_one_value():
    assert verbatim_ids("new number is +65 9871 2204") == ["+65 9871 2204"]
    assert verbatim_ids("call the office on (415) 555-0148") == ["(415) 555-0148"]
    assert verbatim_ids("师傅电话 138 2290 4417，下午到") == ["138 2290 4417"]
    assert verbatim_ids("25 + 6 = 31 元") == ["31 元"]  # a sum is no phone number


def test_a_replaced_phone_number_goes_whole_and_the_new_one_stays_whole():
    en = summarize(
        chat(
            ("user", "Lena's number is +44 7700 900123"),
            ("assistant", "Saved."),
            (
                "user",
                "she changed it, the new one is +44 7700 955410, the old +44 7700 900123 no longer works",
            ),
        )
    )
    assert "+44 7700 955410" in en
    assert "900123" not in en
    zh = summarize(
        chat(
            ("user", "物业电话是 139 1766 2084"),
            ("assistant", "记下了。"),
            ("user", "物业换号码了，新的是 139 1766 5530，旧的 139 1766 2084 不用了"),
        )
    )
    assert "139 1766 5530" in zh
    assert "2084" not in zh


# ---------------------------------------------------------------- a version in three parts


def test_a_bare_version_in_three_parts_is_a_value():
    assert verbatim_ids("release 0.9.1 on thursday") == ["0.9.1"]
    assert verbatim_ids("服务器上还是 nginx 1.24.0，先别升级") == ["1.24.0"]
    assert verbatim_ids("ping 10.0.0.12") == ["10.0.0.12"]  # an address stays one value


def test_a_release_plan_with_a_bare_version_is_kept():
    en = summarize(chat(("user", "ship 0.9.1 on thursday, I'll write the notes myself")))
    assert "0.9.1" in en
    zh = summarize(chat(("user", "周四发 2.3.0，发布说明我来写")))
    assert "2.3.0" in zh


# ---------------------------------------------------------------- a date as typed, month in lower case


def test_a_day_first_date_in_lower_case_is_a_value():
    assert verbatim_ids("I'm away from the 23rd dec till 3rd jan") == ["23rd dec", "3rd jan"]
    assert verbatim_ids("店里 20 dec 到 2 jan 不营业") == ["20 dec", "2 jan"]
    assert verbatim_ids("I have 5 marbles and 3 decks") == []  # a count before a word is no date


# ---------------------------------------------------------------- a measure with its unit


def test_a_measure_with_its_unit_is_a_value():
    assert verbatim_ids("order 18 kg of flour and 500 ml of cream") == ["500 ml", "18 kg"]
    assert verbatim_ids("a 5g network, size L") == []  # a single letter is too often no unit
    assert verbatim_ids("路由器离墙至少 40cm，网线买 3 米的") == ["40cm", "3 米"]
    assert verbatim_ids("I have 5 marbles") == []


def test_a_new_measure_for_a_thing_drops_its_old_one_written_with_or_without_a_space():
    en = summarize(
        chat(
            ("user", "flour from Millers as usual. 18kg."),
            ("assistant", "Millers order: bread flour 18 kg."),
            ("user", "make the flour 22kg then"),
            ("assistant", "Updated the order: flour is 22 kg now."),
        )
    )
    assert "22kg" in en or "22 kg" in en
    assert "18kg" not in en and "18 kg" not in en
    zh = summarize(
        chat(
            ("user", "面粉还是老样子订 18 公斤"),
            ("assistant", "好的，面粉 18 公斤。"),
            ("user", "面粉改成 22 公斤"),
        )
    )
    assert "22 公斤" in zh
    assert "18 公斤" not in zh


# ---------------------------------------------------------------- a user's question asks; the answer says


def test_a_users_question_without_a_request_or_an_identifier_is_no_line():
    en = summarize(
        chat(
            ("user", "how's the weather looking for the weekend?"),
            ("assistant", "Dry on Saturday, rain on Sunday."),
            ("user", "can you book the Saturday trail permit for 2 people?"),
        )
    )
    assert "weather" not in en
    assert "trail permit" in en  # a request put as a question stays
    zh = summarize(
        chat(
            ("user", "空调开了以后会自己关吗？"),
            ("assistant", "会，按你设的定时 23:00 关。"),
            ("user", "能不能帮我把定时改到 23:30？"),
        )
    )
    assert "自己关吗" not in zh
    assert "23:30" in zh


# ---------------------------------------------------------------- people by who they are with, not pronouns


def test_a_person_introduced_by_where_they_are_from_is_a_name():
    from savenow.compaction.summary import people_names, proper_nouns

    assert people_names("Marcus from Bean There rang — they want more croissants") == ["Marcus"]
    assert people_names("Marcus from Bean There called，说每周要加量") == ["Marcus"]  # a mixed chat
    assert people_names("Python from Debian is too old") == []  # no one rang: a product
    assert people_names("Dana called, she wants the quartet") == ["Dana"]
    assert proper_nouns("Shall I send it?") == []  # the pronoun is no part of a name
    assert proper_nouns("要我发给 Harbor View Lodge 吗？Shall I send it?") == ["Harbor View Lodge"]


# ---------------------------------------------------------------- guesses, however they are hedged


def test_a_hedged_theory_is_no_line():
    en = summarize(
        chat(
            ("user", "pretty sure it's the router dropping the lease again"),
            ("assistant", "The lease table is fine; port 3 on sw-core-02 is flapping."),
        )
    )
    assert "pretty sure" not in en
    assert "sw-core-02" in en
    zh = summarize(
        chat(
            ("user", "之前那台机器 NTP 好像有点问题"),
            ("assistant", "查了，时钟偏差 0.2 秒，NTP 正常；是证书在 2026-12-01 过期了。"),
        )
    )
    assert "好像" not in zh
    assert "2026-12-01" in zh


def test_a_sentence_that_opens_as_a_guess_is_one_whatever_follows():
    en = summarize(
        chat(
            ("user", "which hotel near the station?"),
            (
                "assistant",
                "My guess is Harbor Inn has a branch there too, but let me check instead of guessing.",
            ),
            ("assistant", "Checked: Harbor Inn Central is 200 m from the station, ¥9,800 a night."),
        )
    )
    assert "My guess" not in en
    assert "Harbor Inn Central" in en
    zh = summarize(
        chat(
            ("user", "备份为什么没跑"),
            ("assistant", "我猜是 cron 的时区不对，改成 UTC 试试。"),
            ("assistant", "查到了：/etc/cron.d/backup 少了换行，补上后 02:00 正常跑了。"),
        )
    )
    assert "我猜" not in zh
    assert "/etc/cron.d/backup" in zh


# ---------------------------------------------------------------- what an assistant's short code names


def test_paths_and_keys_of_the_code_an_assistant_proposes_reach_the_identifier_line():
    en = summarize(
        chat(
            ("user", "the bucket keeps growing"),
            (
                "assistant",
                'Fix: switch the lifecycle rule to this:\n```json\n[{"fileNamePrefix": "", "daysFromHidingToDeleting": 1}]\n```',
            ),
        )
    )
    assert "daysFromHidingToDeleting" in en
    zh = summarize(
        chat(
            ("user", "证书续期以后 nginx 没有 reload"),
            (
                "assistant",
                "加一个 deploy hook：\n```\nsudo tee /etc/letsencrypt/renewal-hooks/deploy/reload.sh <<'X'\nsystemctl reload nginx\nX\n```",
            ),
        )
    )
    assert "/etc/letsencrypt/renewal-hooks/deploy/reload.sh" in zh


def test_what_a_user_pastes_in_code_is_no_identifier():
    from savenow.compaction import SessionMessage
    from savenow.compaction.summary import code_ids

    pasted = [
        SessionMessage(
            id="0", role="user", content="log:\n```\nopen /var/cache/app/x.lock: permission denied\n```"
        ),
        SessionMessage(id="1", role="user", content="日志如下：\n```\n打开 /srv/data/tmp/42.part 失败\n```"),
    ]
    assert code_ids(pasted, 0) == []
    proposed = [
        SessionMessage(
            id="0", role="assistant", content="改成：\n```\ncp /srv/data/a.conf /srv/data/b.conf\n```"
        )
    ]
    assert [v for v, _ in code_ids(proposed, 0)] == ["/srv/data/a.conf", "/srv/data/b.conf"]
    named = [SessionMessage(id="0", role="assistant", content="Edit `/etc/x.conf`:\n```\n/etc/x.conf\n```")]
    assert code_ids(named, 0) == []  # the prose names it already


# ---------------------------------------------------------------- a proposal the user turns down


def test_a_proposal_the_user_turns_down_is_no_line_but_a_fact_before_the_offer_stays():
    en = summarize(
        chat(
            ("user", "mute the alert channel for now"),
            (
                "assistant",
                "Simplest: add `notify_on_failure=False` on sync_job? I can override it on sync_job only.",
            ),
            ("user", "no, don't touch the DAG today. I'll mute the channel myself"),
        )
    )
    assert "notify_on_failure=False" not in en
    assert "mute the channel myself" in en
    zh = summarize(
        chat(
            ("user", "帮我写条请假消息给班主任"),
            ("assistant", "按王老师的规矩要 7:30 前私信 WeChat，要不要我明早 7:00 提醒你发？"),
            ("user", "不用 我现在就私信她"),
        )
    )
    assert "7:00" not in zh
    assert "7:30 前私信" in zh
