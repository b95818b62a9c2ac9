"""The offline summary's general rules, one test per rule, in English and Chinese.

The chats here are invented for the rule; none comes from an evaluation set.
"""

from __future__ import annotations

from savenow.compaction import OfflineSummarizer, SessionMessage
from savenow.compaction.changes import setting_key, settings_changed
from savenow.compaction.summary import parse_summary, proper_nouns, verbatim_ids


def chat(*turns: tuple[str, str] | tuple[str, str, str, str]) -> list[SessionMessage]:
    """(role, content) or ("assistant", content, tool_name, tool_input); a tool call gets a result."""
    out: list[SessionMessage] = []
    for turn in turns:
        n = str(len(out))
        if len(turn) == 4:
            out.append(
                SessionMessage(id=n, role="assistant", content=turn[1], tool_name=turn[2], tool_input=turn[3])
            )
            out.append(SessionMessage(id=n + "r", role="tool", content="ok"))
        else:
            out.append(SessionMessage(id=n, role=turn[0], content=turn[1]))  # type: ignore[arg-type]
    return out


def summarize(messages: list[SessionMessage], previous: str | None = None) -> str:
    return OfflineSummarizer(ratio=1.0).summarize(previous, messages, max_tokens=4000)


# ---------------------------------------------------------------- identifiers


def test_amounts_with_a_currency_code_or_thousands_separators_are_identifiers():
    assert verbatim_ids("the quote came back at EUR 3,250 for the roof") == ["EUR 3,250"]
    assert verbatim_ids("装修报价 12,800 元，含材料") == ["12,800 元"]
    assert verbatim_ids("raise it to 18,500 then") == ["18,500"]


def test_an_option_with_its_value_is_an_identifier():
    assert "--max-retries 5" in verbatim_ids("run it with --max-retries 5 please")
    assert "--jobs=3" in verbatim_ids("构建加上 --jobs=3 就不会爆内存")


def test_proper_nouns_are_names_of_places_businesses_and_products():
    assert proper_nouns("We picked Casa Lupita Grill for Friday") == ["Casa Lupita Grill"]
    assert proper_nouns("Booking Harbor View Lodge for two nights") == ["Harbor View Lodge"]
    assert proper_nouns("For Lisbon: any ideas?") == []  # a sentence's first common word is no name
    assert proper_nouns("周六订了一家老码头火锅") == ["老码头火锅"]
    assert proper_nouns("下午带孩子去旁边的自然博物馆") == ["自然博物馆"]


def test_a_named_proper_noun_survives_in_the_summary():
    en = summarize(chat(("user", "we'll stay at Harbor View Lodge, ref HVL-2281")))
    assert "Harbor View Lodge" in en
    zh = summarize(chat(("user", "晚饭就定老码头火锅吧，6 点半")))
    assert "老码头火锅" in zh


# ---------------------------------------------------------------- settings changed by tool calls


def test_settings_a_command_changes_are_read_from_the_command_line():
    assert settings_changed("sed -i 's/^workers = 4/workers = 2/' /etc/app/app.toml") == [
        ("workers", "workers = 2")
    ]
    assert settings_changed("sed -i 's|^DATA_DIR=.*|DATA_DIR=/mnt/data|' .env") == [
        ("data_dir", "DATA_DIR=/mnt/data")
    ]
    assert settings_changed("npm install left-pad@1.3.0 chalk") == [("left-pad", "left-pad@1.3.0")]
    assert settings_changed("pip install 'requests==2.32.3'") == [("requests", "requests==2.32.3")]
    assert settings_changed("FEATURE_X=1 make build") == [("feature_x", "FEATURE_X=1")]
    assert setting_key("workers = 2") == "workers" and setting_key("left-pad@1.3.0") == "left-pad"


def test_settings_are_listed_cumulatively_and_a_later_value_replaces_the_earlier():
    first = summarize(
        chat(
            ("user", "把 worker 数降一下，内存不够"),
            ("assistant", "", "bash", "sed -i 's/^workers = 4/workers = 2/' /etc/app/app.toml"),
        )
    )
    assert "`workers = 2`" in first and parse_summary(first).files["workers = 2"] == "set"
    second = summarize(
        chat(
            ("user", "still slow, one worker then"),
            ("assistant", "", "bash", "sed -i 's/^workers = 2/workers = 1/' app.toml"),
        ),
        previous=first,
    )
    assert "`workers = 1`" in second and "workers = 2" not in second


def test_a_key_set_again_later_drops_its_earlier_value():
    zh = summarize(
        chat(
            ("user", "先用 FEATURE_X=0 试试能不能编过"),
            ("assistant", "", "bash", "cd ~/src/app && FEATURE_X=1 make build"),
            ("assistant", "编过了。"),
        )
    )
    assert "FEATURE_X=1" in zh and "FEATURE_X=0" not in zh
    en = summarize(
        chat(
            ("user", "try it with `CACHE_TTL=30` first"),
            ("user", "no, make it `CACHE_TTL=300`, thirty seconds is silly"),
        )
    )
    assert "CACHE_TTL=300" in en and "CACHE_TTL=30`" not in en


def test_a_file_written_through_tee_is_listed_even_without_a_suffix():
    summary = summarize(
        chat(("assistant", "", "bash", "echo '15 4 * * * root /opt/gc.sh' | sudo tee /etc/cron.d/gc"))
    )
    assert parse_summary(summary).files.get("/etc/cron.d/gc") == "modified"


# ---------------------------------------------------------------- values abandoned


def test_a_judgement_drops_the_value_it_judges():
    zh = summarize(chat(("user", "备份放每天 02:15 吧"), ("user", "02:15 不行，那时候在同步，改成 05:10")))
    assert "05:10" in zh and "02:15" not in zh
    en = summarize(
        chat(("user", "use --level 19 for the archive"), ("user", "--level 19 is not worth it, way too slow"))
    )
    assert "--level 19" not in en


def test_a_value_named_again_after_the_judgement_stays():
    summary = summarize(chat(("user", "每天 5 点跑没必要，改成每周六 5 点")))
    assert "5 点" in summary


def test_a_judgement_never_drops_a_path_or_host():
    summary = summarize(
        chat(("user", "装到 /srv/tools 下面不行吗？"), ("user", "/srv/tools 不行，权限不够，先放 ~/tools"))
    )
    assert "/srv/tools" in summary


def test_a_change_of_the_same_value_to_something_else_drops_the_first_target():
    en = summarize(
        chat(
            ("user", "I think the lesson price goes from €40 to €45"),
            ("user", "actually from €40 to €48, flat"),
        )
    )
    assert "€48" in en and "€45" not in en
    zh = summarize(chat(("user", "月租从 ¥300 调到 ¥350"), ("user", "算了，从 ¥300 调到 ¥380")))
    assert "¥380" in zh and "¥350" not in zh


def test_a_new_value_for_a_named_thing_drops_its_older_value():
    en = summarize(
        chat(("user", "rent budget: USD 2,000 a month"), ("user", "let's raise the rent budget to 2,400"))
    )
    assert "2,400" in en and "USD 2,000" not in en
    zh = summarize(chat(("user", "预算 8,000 元以内"), ("user", "预算提到 9,500 元吧")))
    assert "9,500 元" in zh and "8,000 元" not in zh


def test_the_option_a_choice_is_compared_against_is_dropped():
    zh = summarize(
        chat(("user", "订 MU5101 吧"), ("assistant", "订好了 MU5101，比 3 号那班 HU7602 便宜 300 块。"))
    )
    assert "MU5101" in zh and "HU7602" not in zh
    en = summarize(chat(("assistant", "Booked QX-442, it is cheaper than QX-310 by $80.")))
    assert "QX-442" in en and "QX-310" not in en


# ---------------------------------------------------------------- chatter and guesses


def test_a_remark_opened_by_laughter_is_chatter_even_with_a_count_or_name():
    en = summarize(
        chat(("user", "lol Marco counted 14 pigeons on the balcony"), ("user", "deploy target is 10.2.0.7"))
    )
    assert "pigeons" not in en and "10.2.0.7" in en
    zh = summarize(chat(("user", "哈哈 小区里有 5 只流浪猫"), ("user", "路由器地址是 10.2.0.1")))
    assert "流浪猫" not in zh and "10.2.0.1" in zh


def test_a_remark_opened_by_an_interjection_is_chatter():
    en = summarize(
        chat(("user", "oh man it's already 7:45, kids to school"), ("user", "the key id is K-7781"))
    )
    assert "7:45" not in en and "K-7781" in en
    zh = summarize(chat(("user", "天哪 外面 35 度"), ("user", "工单号 OPS-3310")))
    assert "35 度" not in zh and "OPS-3310" in zh


def test_a_question_that_offers_a_cause_is_a_guess():
    zh = summarize(chat(("user", "那是网线松了？"), ("user", "交换机是 10.9.0.2")))
    assert "网线松了" not in zh
    en = summarize(chat(("user", "is it the DNS cache again?"), ("user", "the switch is 10.9.0.2")))
    assert "DNS cache" not in en


def test_greetings_and_sign_offs_are_chatter():
    en = summarize(
        chat(
            ("user", "g'day Sam!"),
            ("user", "right, opening the shop, chat later"),
            ("user", "order id PO-5512"),
        )
    )
    assert "g'day" not in en.casefold() and "chat later" not in en
    zh = summarize(chat(("user", "先这样，回头聊"), ("user", "订单号 PO-5512")))
    assert "回头聊" not in zh


# ---------------------------------------------------------------- people and preferences


def test_what_a_named_person_is_like_goes_to_people():
    en = summarize(chat(("user", "it's me, Priya (8) and Tom"), ("user", "Priya is allergic to peanuts")))
    people = en.split("### People · 人物")[1].split("###")[0]
    assert "Priya is allergic to peanuts" in people
    zh = summarize(chat(("user", "阿强是素食，订餐注意")))
    assert "阿强是素食" in zh


def test_a_limit_the_user_sets_is_a_preference():
    en = summarize(chat(("user", "max 3 meetings per day, I need focus time")))
    assert "### Preferences · 偏好" in en
    zh = summarize(chat(("user", "每天最多两个会，我要留时间写代码")))
    assert "### Preferences · 偏好" in zh


def test_stability_settings_and_proper_nouns_survive_a_second_round():
    first = summarize(
        chat(
            ("user", "we'll stay at Harbor View Lodge"),
            ("assistant", "", "bash", "cd app && yarn add date-fns@3.6.0"),
        )
    )
    second = summarize(chat(("user", "ok, next topic: the blog")), previous=first)
    assert "Harbor View Lodge" in second and "date-fns@3.6.0" in second


# ---------------------------------------------------------------- tuning round 2 (issue 15)


def test_dates_are_one_value_each():
    assert verbatim_ids("内部截止 1月15日，系统截止 3月20日") == ["1月15日", "3月20日"]
    assert "January 9" in verbatim_ids("the deposit is due January 9")


def test_a_confirmation_that_only_repeats_the_user_goes_and_the_users_words_stay():
    summary = summarize(
        chat(
            ("user", "设计师阿青出图，工长是老许，施工全归老许管"),
            ("assistant", "好的，阿青负责设计出图，老许是工长管施工。"),
        )
    )
    assert "设计师阿青出图" in summary and "管施工" not in summary


def test_a_short_answer_keeps_the_question_it_answers():
    en = summarize(chat(("assistant", "Who is keeping the spare keys?"), ("user", "Priyanka, obviously.")))
    assert "spare keys" in en and "Priyanka" in en
    zh = summarize(chat(("assistant", "孩子有身份证吗？"), ("user", "没有身份证，带户口本")))
    assert "户口本" in zh


def test_a_moved_date_drops_the_old_one_in_the_same_line_and_in_earlier_lines():
    summary = summarize(
        chat(
            ("user", "开工日期定 11月8号"),
            ("user", "坏消息，师傅说 11月8号 那周没空，开工推到 11月15号"),
        )
    )
    assert "11月15号" in summary and "11月8号" not in summary


def test_the_final_value_drops_the_ones_the_line_gives_up():
    summary = summarize(
        chat(
            ("user", "总预算调到 9.5万"),
            ("user", "商量了一下，最终总预算 8.8万"),
        )
    )
    assert "8.8万" in summary and "9.5万" not in summary


def test_a_title_or_a_role_names_a_person():
    summary = summarize(
        chat(("user", "模拟评审的刘教授看了初稿，说创新点太散"), ("user", "导师是陈立平，周三有空"))
    )
    assert "刘教授" in summary and "陈立平" in summary


def test_a_host_named_only_in_a_command_is_listed():
    summary = summarize(
        chat(
            ("user", "check the row counts on the warehouse"),
            ("assistant", "", "bash", "psql -h dwh-pg-07 -p 5432 -U etl -c 'select 1'"),
            ("assistant", "Counts look fine."),
        )
    )
    assert "dwh-pg-07" in summary


def test_signing_off_and_doubting_a_value_are_not_facts():
    zh = summarize(chat(("user", "deadline 定在 3月20日"), ("user", "今天就这样吧，眼睛要瞎了")))
    assert "3月20日" in zh and "眼睛" not in zh
    en = summarize(
        chat(("user", "the deposit is $1,800, due March 3"), ("user", "actually wait, was it $1,500?"))
    )
    assert "$1,800" in en and "$1,500" not in en


def test_keeping_what_is_there_is_a_decision():
    assert "石膏板留着" in summarize(chat(("user", "那算了，石膏板留着。")))


def test_a_line_kept_by_the_previous_summary_holds_against_an_equal_new_one():
    first = summarize(chat(("user", "以后所有报价都按含税价算，别给我不含税的")))
    assert "含税价" in first
    second = OfflineSummarizer(ratio=1.0).summarize(first, chat(("user", "好的")), max_tokens=4000)
    assert "含税价" in second


def test_an_open_item_reported_done_later_goes_and_another_stays():
    summary = summarize(
        chat(
            ("user", "todo：约房东签水电图"),
            ("user", "todo：给 Kerry 发对账单"),
            ("user", "房东签了！约房东签水电图这个待办完成"),
            ("user", "给 Bob 的对账单发了，他说下周付款"),
        )
    )
    assert "todo：约房东签水电图" not in summary and "给 Kerry 发对账单" in summary


def test_a_remark_that_ends_in_laughter_is_chatter():
    summary = summarize(
        chat(
            ("user", "the invite got forwarded to the whole golf club lol"),
            ("user", "venue is Fernhill Hall"),
        )
    )
    assert "golf" not in summary and "Fernhill Hall" in summary


def test_a_reply_that_answers_nothing_does_not_borrow_the_question():
    summary = summarize(chat(("assistant", "周末无聊的话可以出去走走，或者看部电影？"), ("user", "推荐一下")))
    assert "看部电影" not in summary


def test_a_capitalized_name_next_to_a_role_is_a_person():
    summary = summarize(
        chat(("user", "Nadia from finance handles the invoices"), ("user", "the plumber is called Ivo"))
    )
    assert "Nadia from finance" in summary and "Ivo" in summary
    assert "People" in summary


# ---------------------------------------------------------------- round-5 rules (issue 15, robustness)


def test_a_name_two_commands_work_on_goes_to_the_identifier_line():
    summary = summarize(
        chat(
            ("user", "看看为什么发布挂了"),
            ("assistant", "", "bash", "gh run list -R northwind/ledger-api -L 5"),
            ("assistant", "", "bash", "git checkout -b hotfix/tz-offset && make test"),
            (
                "assistant",
                "",
                "bash",
                "git push -u origin hotfix/tz-offset && gh pr create -R northwind/ledger-api",
            ),
        )
    )
    assert "northwind/ledger-api" in summary and "hotfix/tz-offset" in summary


def test_a_name_one_command_uses_once_is_not_listed_for_that():
    summary = summarize(
        chat(("user", "check the runs"), ("assistant", "", "bash", "gh run list -R acme/once-only"))
    )
    assert "acme/once-only" not in summary


def test_leaving_a_thing_as_it_is_is_a_decision_even_with_a_hedged_reason():
    en = summarize(chat(("user", "leave PGBOUNCER_POOL for now, the reporting jobs might depend on it")))
    assert "leave PGBOUNCER_POOL for now" in en
    zh = summarize(chat(("user", "nginx 的 worker 数先不动，可能别的服务也在用这台机器")))
    assert "先不动" in zh


def test_a_remark_nobody_takes_up_weighs_less_than_one_the_chat_comes_back_to():
    from savenow.compaction.summary import ONE_OFF_WEIGHT, PLAIN_WEIGHT, statements

    for aside, later in (
        ("最近在追一部老港剧，第三遍了", "数据库备份还是在每晚跑，顺便看下磁盘使用情况"),
        (
            "the sourdough starter is bubbling like crazy today",
            "the staging deploy still fails on migrations",
        ),
    ):
        lines, *_ = statements(
            chat(
                ("user", aside),
                ("assistant", "nice"),
                ("user", "and the deploy config still points at staging"),
                ("user", later),
            ),
            0,
        )
        weights = {line.text: line.weight for line in lines}
        assert weights.get(aside, ONE_OFF_WEIGHT) == ONE_OFF_WEIGHT
    lines, *_ = statements(
        chat(
            ("user", "and the dockerfile still installs with poetry"),
            ("assistant", "right"),
            ("user", "switch the dockerfile to uv as well"),
        ),
        0,
    )
    assert any(line.weight == PLAIN_WEIGHT for line in lines if "poetry" in line.text)


def test_who_does_what_is_a_decision():
    zh = summarize(chat(("user", "发票那边我自己去开，你别管")))
    assert "我自己" in zh
    en = summarize(chat(("user", "I'll update the homebrew formula myself after the release")))
    assert "homebrew formula myself" in en


def test_excluding_a_named_thing_is_an_action_not_a_cause_ruled_out():
    kept = summarize(chat(("user", "告警规则里排除 db-backup-02，它每晚备份时 CPU 本来就高。")))
    assert "排除 db-backup-02" in kept
    gone = summarize(chat(("assistant", "时钟是同步的，所以排除了时间不同步的问题。")))
    assert "时间不同步" not in gone


def test_a_prohibition_is_an_instruction_however_short():
    en = summarize(
        chat(
            ("assistant", "Shall I patch the cron job?"),
            ("user", "no, don't touch the cron job until Monday. thanks"),
        )
    )
    assert "don't touch the cron job" in en
    zh = summarize(chat(("user", "先别重启数据库，晚上再说")))
    assert "先别重启数据库" in zh
