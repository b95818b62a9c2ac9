"""Later values (:mod:`savenow.extract.heuristic.later_values`): a value the chat changes or withdraws
is saved as it stands, never in its old form; a clause that only says what no longer holds goes."""

from __future__ import annotations

from savenow.extract.heuristic.later_values import chat_values, without_value, without_withdrawn
from tests.extract.support import chat, extract, saved, text_of


def _all_text(messages: list) -> str:
    return "\n".join(text_of(e) for e in saved(extract(messages)))


def test_a_time_changed_later_replaces_the_old_one_in_the_fact_said_before_en() -> None:
    messages = chat(
        "u: club is Harrow Riders. winter rides start 6 Dec. meet at the north gate 8:30",
        "a: Got it: Harrow Riders winter Sunday rides from 6 Dec, meet at the north gate at 8:30.",
        "u: route is the lake loop",
        "a: Nice.",
        "u: the meet time, 8:30 is too dark in december",
        "u: moving it to 9:00",
        "a: Makes sense. Meet time changed: 9:00 at the north gate.",
    )
    text = _all_text(messages)
    assert "9:00" in text
    assert "8:30" not in text


def test_a_number_withdrawn_later_is_not_saved_zh() -> None:
    messages = chat(
        "u: 门诊电话帮我记一下：护士站内线 6021，药房 6140",
        "a: 记下了：护士站内线 6021，药房 6140。",
        "u: 哦等下 药房那个不对",
        "u: 药房搬到二楼了，现在是 6152，6140 已经停用了",
        "a: 收到，药房现在是 6152，旧的 6140 作废。",
    )
    text = _all_text(messages)
    assert "6152" in text
    assert "6140" not in text


def test_an_amount_corrected_in_the_next_turn_replaces_the_first_zh() -> None:
    messages = chat(
        "u: 给外卖定个上限，每月 600",
        "a: 好的，外卖每月上限 600 元。",
        "u: 不对 600 太狠了 我做不到，定 800 吧",
        "a: 哈哈 实际一点也好，改成每月 800 元。",
        "u: 行",
    )
    text = _all_text(messages)
    assert "800" in text
    assert "600" not in text


def test_two_times_named_side_by_side_are_no_change_zh() -> None:
    # "避开 03:00 … 放到 05:00": the old time is named as the one to avoid, no change word before the new one
    messages = chat(
        "u: GC 每天 03:00 跑，nightly 也是 03:00 开始 push",
        "a: 记下了：GC 和 nightly 都在 03:00。",
        "u: 那 GC 时间放到周日 05:00，避开每天 03:00 的 push",
        "a: 好的：GC 放到周日 05:00，避开 03:00 的 nightly。",
    )
    assert "03:00" in _all_text(messages)


def test_a_withdrawn_clause_goes_and_the_rest_of_the_bullet_stays() -> None:
    assert without_withdrawn("药房现在是 6152，旧的 6140 作废。") == "药房现在是 6152。"
    assert without_withdrawn("Swim club $110/month starting December (was $95).") == (
        "Swim club $110/month starting December."
    )
    assert without_withdrawn("Caterer is Blue Ginger, +65 6322 9017; the old caterer is no longer used.") == (
        "Caterer is Blue Ginger, +65 6322 9017."
    )
    assert without_withdrawn("Mr. Goh，+65 6322 9017；Saffron Table 不用了。") == "Mr. Goh，+65 6322 9017。"


def test_a_bullet_that_is_only_a_withdrawal_stays_as_it_is() -> None:
    # nothing else to keep: the note's selection decides, not the tidying
    assert without_withdrawn("旧的 6140 作废。") == "旧的 6140 作废。"
    assert without_withdrawn("The old number is retired.") == "The old number is retired."


def test_the_clause_with_the_new_value_stays_beside_a_withdrawal() -> None:
    assert without_withdrawn("旧号码停用，现在打 152 2871 0466。") == "现在打 152 2871 0466。"
    assert without_withdrawn("旧的停用了，以后打 152 2871 0466。") == "以后打 152 2871 0466。"


# --------------------------------------------------------------------------- wrap-ups


def test_the_assistants_summary_after_it_works_is_the_note_en() -> None:
    messages = chat(
        "u: uploads over 1MB get 413 from the api",
        "a: That's the proxy's body limit. Add `proxy-body-size: \"10m\"` to the Ingress annotations.",
        "u: some files are 30MB",
        'a: Then `"50m"` gives headroom.',
        "u: set it in the repo manifest, synced, 30MB upload works",
        'a: Great. So: `proxy-body-size: "50m"` on the api Ingress, set in `k8s/api/ingress.yaml`, '
        "never by a live edit.",
        "u: ya",
    )
    notes = saved(extract(messages))
    assert any("50m" in text_of(n) and "ingress.yaml" in text_of(n) for n in notes)


def test_the_assistant_noting_what_holds_is_no_plan_for_later_en() -> None:
    messages = chat(
        "u: gradle wanted the signing password again",
        "a: Which keys does the build script read?",
        "u: APP_STORE_PASSWORD and APP_KEY_PASSWORD, renamed them back. works",
        "a: Nice. I'll note that the signing passwords are read from `~/.gradle/gradle.properties` as "
        "`APP_STORE_PASSWORD` and `APP_KEY_PASSWORD`.",
        "u: 👍",
    )
    assert any("gradle.properties" in text_of(n) for n in saved(extract(messages)))


def test_the_assistants_summary_after_the_user_chose_is_the_note_zh() -> None:
    messages = chat(
        "u: 备份老是超时",
        "a: 看日志是连接阶段超时，默认连接超时 1 分钟。",
        "u: 那就把连接超时调大，`--contimeout 2m`",
        "a: 所以：`offsite.sh` 里加 `--contimeout 2m`，其他参数不动。",
        "u: 好",
    )
    assert any("--contimeout 2m" in text_of(n) for n in saved(extract(messages)))


def test_a_summary_lead_without_a_value_or_name_is_no_note_en() -> None:
    messages = chat(
        "u: ok that worked",
        "a: So: all good now.",
    )
    assert not saved(extract(messages))


# --------------------------------------------------------------------------- record lead-ins


def test_the_assistants_record_lead_in_is_not_part_of_the_bullet() -> None:
    from savenow.extract.heuristic.form import tidy_bullet

    assert tidy_bullet("Saved: Declan leads A (07700 914 233).") == "Declan leads A (07700 914 233)."
    assert (
        tidy_bullet("Added: mudguards mandatory on winter rides.") == "Mudguards mandatory on winter rides."
    )
    assert tidy_bullet("Confirmed: max 4 GPUs per user.") == "Max 4 GPUs per user."
    assert tidy_bullet("改：药房现在是 6152。") == "药房现在是 6152。"
    assert tidy_bullet("更新：Joanne 新号码 +65 9123 7781。") == "Joanne 新号码 +65 9123 7781。"
    # "going forward" is when the chat said the rule: the note states the rule (issue 12)
    assert tidy_bullet("Going forward, deploys go through Argo.") == "Deploys go through Argo."


def test_a_value_is_a_whole_number_never_the_head_of_a_longer_one_or_of_a_size() -> None:
    assert chat_values("limit 200m, global 50m, port 6380, 价格 ¥1,800") == ["6380", "¥1,800"]
    assert chat_values("改成 16:30，旧的 15:00") == ["16:30", "15:00"]


def test_cutting_an_old_value_never_leaves_a_bracket_open_en_and_zh() -> None:
    en = "The block has its own limit (now 6380) that overrides the old 6379, so check it first."
    zh = "上传限制（现在 6380）覆盖了旧的 6379，先查这里。"
    for bullet in (en, zh):
        kept = without_value(bullet, "6379")
        assert kept is not None
        assert kept.count("(") == kept.count(")") and kept.count("（") == kept.count("）")


def test_a_changed_value_is_replaced_only_where_it_stands_whole_never_inside_a_longer_number() -> None:
    messages = chat(
        "u: 上个月水电花了 1600，这个月预算 600",
        "a: 好的，预算 600。",
        "u: 不对 600 太少了，定 800 吧",
        "a: 好，这个月预算 800。",
    )
    text = _all_text(messages)
    assert "1800" not in text  # the 600 inside 1600 is not the value that changed
    assert "600" not in text.replace("1600", "")


def test_a_measure_corrected_without_naming_the_old_one_replaces_it_en() -> None:
    messages = chat(
        "u: mum saw the GP today, meds changed",
        "a: What changed?",
        "u: amlodipine stays 5mg in the morning",
        "a: OK, amlodipine 5mg mornings, unchanged.",
        "u: new one, atorvastatin 20mg at night",
        "a: Got it: atorvastatin 20mg, evenings.",
        "u: sorry, 10mg. I misread the box",
        "a: No problem — atorvastatin 10mg at night.",
    )
    text = _all_text(messages)
    assert "20mg" not in text and "10mg" in text
    assert "5mg" in text or "amlodipine" not in text.casefold()  # the other drug's dose is not touched


def test_a_measure_corrected_without_naming_the_old_one_replaces_it_zh() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_corrections

    messages = chat(
        "u: 医生说维生素 D 每天吃 2 片",
        "a: 好的：维生素 D 每天 2 片。",
        "u: 不对，是 1 片，我看错了",
        "a: 好的，每天 1 片。",
    )
    changes = find_corrections(read_chat(messages))
    assert [(c.old, c.new) for c in changes] == [("2 片", "1 片")]


def test_a_correction_with_two_old_measures_of_its_unit_changes_nothing() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_corrections

    messages = chat("u: 早上 20mg，晚上 40mg", "a: 好的。", "u: sorry, 10mg")
    assert find_corrections(read_chat(messages)) == []


def test_the_value_of_a_guess_the_user_turns_down_is_not_saved_zh() -> None:
    messages = chat(
        "u: ssh 我开了，端口改成了 2202",
        'a: 收到，那加上 `-e "ssh -p 2202"`。我猜你之前连不上可能是因为防火墙没放行 873 端口？',
        "u: 不是，rsync 走 ssh 根本不用 873，我之前是用户没加到 administrators 组",
        "a: 抱歉，你说得对，走 ssh 的话确实跟 873 无关。",
    )
    assert "873" not in _all_text(messages)


def test_the_value_of_a_guess_the_user_turns_down_is_not_saved_en() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_refuted

    messages = chat(
        "u: the queue consumer keeps dropping",
        "a: Maybe it's the RabbitMQ 3.12 heartbeat default of 60 seconds?",
        "u: no, it was never 60 here, heartbeat is 30 already",
        "a: Sorry — then it isn't the heartbeat.",
    )
    assert [(c.old, c.new) for c in find_refuted(read_chat(messages))] == [("60", None)]
    # a plain statement (no guess) that the user corrects is no refuted hypothesis
    assert find_refuted(read_chat(chat("a: It runs on port 8080.", "u: no, 8080 is the admin port"))) == []


def test_the_assistant_taking_its_guess_back_is_no_fact_zh_en() -> None:
    from savenow.extract.heuristic.signals import LEX

    assert LEX.RULED_OUT.search("你说得对，字体缺失的话会在 xelatex 阶段报错，我刚才判断错了。")
    assert LEX.RULED_OUT.search("Sorry, I was wrong about the heartbeat.")
    assert not LEX.RULED_OUT.search("不对，是 1 片，我看错了")  # the user's own correction stays a fact
    messages = chat(
        "u: 论文编译又炸了，biber 报 Text::BibTeX 的错",
        "a: 我猜可能是字体缺失？",
        "u: 不是吧 这是 biber 报的",
        "a: 你说得对，字体缺失的话会在 xelatex 阶段报 `fontspec error`，我刚才判断错了。这个报错常见原因是 biber 的缓存坏了。",
        "a: 运行 `biber --cache` 看看缓存目录，然后把它整个删掉。",
        "u: 好了！！参考文献出来了",
    )
    assert "字体缺失" not in _all_text(messages)


def test_surprise_and_agreement_do_not_turn_a_guess_down() -> None:
    from savenow.extract.heuristic.later_values import _REFUSAL

    assert _REFUSAL.search("不是，rsync 走 ssh 根本不用 873") and _REFUSAL.search("no, it was the cable")
    for reply in ("不是吧，还真是 873 没开", "No doubt, 873 was closed", "no problem, opened it"):
        assert not _REFUSAL.search(reply)


def test_a_fact_added_with_actually_corrects_nothing() -> None:
    messages = chat(
        "u: invoice terms for Brightline: deposit 30% upfront",
        "a: Noted, 30% deposit upfront.",
        "u: actually, VAT is 13% on top of that",
        "a: Got it, 13% VAT on top.",
    )
    text = " ".join(text_of(n) for n in saved(extract(messages)))
    assert "13% deposit" not in text


def test_a_correction_still_replaces_the_measure_before_it() -> None:
    messages = chat(
        "u: new prescription, atorvastatin 20mg at night",
        "a: Got it: atorvastatin 20mg at night.",
        "u: sorry, 10mg. I misread the box",
        "a: Noted, 10mg.",
    )
    text = " ".join(text_of(n) for n in saved(extract(messages)))
    assert "20mg" not in text


# --- a setting assigned again ("`listen_port = 6432`" … "Updated: `listen_port = 6543`")


def test_a_setting_assigned_again_replaces_its_old_value_en() -> None:
    messages = chat(
        "u: new pooler VM is pool-1.example.internal, same subnet as the db",
        "a: And it listens on the default port?",
        "u: yes 6432",
        "a: OK. Minimal config:\n```ini\n[pgbouncer]\nlisten_port = 6432\npool_mode = transaction\n```",
        "u: hmm the security team wants a non-default port",
        "u: 6543",
        "a: Updated:\n```ini\nlisten_port = 6543\n```\nRemember to open 6543 in the firewall group, not 6432.",
        "u: opened 6543, pooler is up",
    )
    text = _all_text(messages)
    assert "6543" in text
    assert "6432" not in text


def test_a_setting_settled_on_again_replaces_the_first_assignment_zh() -> None:
    messages = chat(
        "u: pgBackRest 现在 full 留 7 个，太多了 磁盘贵，改成 repo1-retention-full=4",
        "a: 好的，repo1-retention-full=4。",
        "u: 等下，4 周不够，申诉一般一个月以后才来。还是 6 吧",
        "a: 好的，最终 repo1-retention-full=6，以后 pgBackRest 保留 6 个 full。",
        "u: 改好了",
    )
    text = _all_text(messages)
    assert "repo1-retention-full=6" in text
    assert "repo1-retention-full=4" not in text


def test_the_same_setting_for_two_hosts_without_a_change_word_is_no_change() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_reassigned

    messages = chat(
        "u: db-1 用 `port = 3306`",
        "a: 好的，db-1 端口 3306。",
        "u: db-2 是 `port = 3307`",
        "a: 收到，db-2 端口 3307。",
    )
    assert find_reassigned(read_chat(messages)) == []


# --- the assistant's acknowledgement corrects the value it took down ("好的，更正为 62 元/块")


def test_an_acknowledgement_that_corrects_the_price_replaces_the_old_one_zh() -> None:
    messages = chat(
        "u: 黄油以后改从北区冻品老陈那拿总统黄油，他报价 58 元一块",
        "a: 明白：总统黄油改由北区冻品（老陈）供货，58 元/块。送货时间定了吗？",
        "u: 每周三上午送。老陈又说过完年涨价，以后按 62 元一块算",
        "a: 好的，更正为 62 元/块，每周三上午送货。",
    )
    text = _all_text(messages)
    assert "62 元" in text
    assert "58 元" not in text


def test_an_acknowledgement_that_corrects_the_dose_replaces_the_old_one_en() -> None:
    messages = chat(
        "u: new prescription for mum: amlodipine 5mg every morning, remember that",
        "a: Noted: amlodipine 5mg every morning.",
        "u: the pharmacist said the new box is the smaller tablet, half of what she had",
        "a: OK, correction: amlodipine 2.5mg every morning.",
    )
    text = _all_text(messages)
    assert "2.5mg" in text
    assert "5mg every" not in text.replace("2.5mg every", "")


# --- review mends: the assistant's words never replace the user's value on their own


def test_sympathy_or_an_apology_from_the_assistant_corrects_no_measure_en() -> None:
    messages = chat(
        "u: doctor started me on metformin 500mg twice a day, remember that",
        "a: Sorry to hear about the diagnosis. Many people start lower, at 250mg, and work up.",
    )
    text = _all_text(messages)
    assert "500mg" in text
    assert "250mg" not in text


def test_an_invitation_to_point_out_mistakes_corrects_no_measure_zh() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_corrections

    messages = chat(
        "u: 医生让我每天吃二甲双胍 500mg，记一下",
        "a: 不对的地方请指出。一般起步是 250mg，再慢慢加。",
        "u: 另外晚饭后散步 30 分钟",
        "a: sorry for the wait — 有人从 250mg 开始。",
    )
    assert find_corrections(read_chat(messages)) == []


def test_the_assistants_explicit_correction_must_not_contradict_the_user_just_before() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_corrections

    messages = chat(
        "u: metformin 500mg twice a day",
        "a: Noted: metformin 500mg twice a day.",
        "u: and she takes it with breakfast 500mg",
        "a: OK, correction: metformin 250mg.",
    )
    assert find_corrections(read_chat(messages)) == []


def test_an_assistants_offer_the_user_turns_down_reassigns_nothing_en() -> None:
    messages = chat(
        "u: pgbouncer runs with `listen_port = 6432` on pool-1, remember that",
        "a: Noted: pgbouncer on pool-1 listens on `listen_port = 6432`.",
        "u: it shares the box with nothing else",
        "a: If 6432 ever clashes you could use `listen_port = 6543` instead.",
        "u: no need, it doesn't clash",
    )
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_reassigned

    assert find_reassigned(read_chat(messages)) == []
    text = _all_text(messages)
    assert "6432" in text and "6543" not in text


def test_an_assistants_offer_the_user_turns_down_reassigns_nothing_zh() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_reassigned

    messages = chat(
        "u: pgbouncer 用 `listen_port = 6432`，记一下",
        "a: 好的，pgbouncer 端口 `listen_port = 6432`。",
        "u: 这台机器上没别的服务",
        "a: 如果以后冲突，可以改成 `listen_port = 6543`。",
        "u: 不用，不会冲突",
    )
    assert find_reassigned(read_chat(messages)) == []


def test_an_assistants_new_value_nobody_asked_for_reassigns_nothing() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_reassigned

    messages = chat(
        "u: set `pool_mode = session` on pool-1",
        "a: Done: `pool_mode = session`.",
        "u: thanks, the app is back",
        "a: Actually `pool_mode = transaction` is more common now.",
    )
    assert find_reassigned(read_chat(messages)) == []


def test_a_prose_assignment_after_a_fenced_block_is_read_as_prose() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import _assignments

    (message,) = read_chat(chat("u: log:\n```\nshort\n```\nso set retention_full=4 please"))
    assert ("retention_full", "retention_full=4") in _assignments(message)
    (zh,) = read_chat(chat("u: 日志：\n```\nshort\n```\n所以改成 retention_full=4 吧"))
    assert ("retention_full", "retention_full=4") in _assignments(zh)
    # inline code in the prose is still code: its value is taken whole from the span, not as prose
    (inline,) = read_chat(chat("u: log:\n```\nx\n```\nuse `retention_full=4 --force` now"))
    assert ("retention_full", "retention_full=4") not in _assignments(inline)


def test_advice_after_the_block_the_user_asked_for_is_no_offer() -> None:
    from savenow.extract.heuristic.chat import read_chat
    from savenow.extract.heuristic.later_values import find_reassigned

    messages = chat(
        "u: pool-1 config: `listen_port = 6432`",
        "a: Noted.",
        "u: security wants a non-default port, change it to 6543",
        "a: Updated:\n```ini\nlisten_port = 6543\n```\nIf the app can't connect, open 6543 in the firewall.",
    )
    assert [(c.old, c.new) for c in find_reassigned(read_chat(messages))] == [("6432", "6543")]
    offer = chat(
        "u: pool-1 config: `listen_port = 6432`",
        "a: Noted.",
        "u: security wants a non-default port",
        "a: If you like, you could switch to:\n```ini\nlisten_port = 6543\n```",
        "u: nah, leave it",
    )
    assert find_reassigned(read_chat(offer)) == []


# --- a change said in one sentence: its old value is no part of the note (later_values.without_old_of_change)


def test_the_old_value_of_a_change_in_one_sentence_goes_zh() -> None:
    from savenow.extract.heuristic.later_values import without_old_of_change

    assert without_old_of_change("医生说优甲乐从 75 微克减到 62.5 微克") == "医生说优甲乐减到 62.5 微克"
    assert without_old_of_change("line-length 从 88 改成 100") == "line-length 改成 100"
    assert without_old_of_change("从 1 月到 3 月每周上课") == "从 1 月到 3 月每周上课"  # a range


def test_the_old_value_of_a_change_in_one_sentence_goes_en() -> None:
    from savenow.extract.heuristic.later_values import without_old_of_change

    assert without_old_of_change("changed the port from 6379 to 6380") == "changed the port to 6380"
    assert without_old_of_change("rent went up from $1,800 to $1,950") == "rent went up to $1,950"
    assert without_old_of_change("the shop is open from 9 to 5") == "the shop is open from 9 to 5"  # a range
    assert without_old_of_change("ran `sed s/from 1 to 2/`") == "ran `sed s/from 1 to 2/`"  # code


def test_a_dose_changed_in_one_sentence_is_saved_without_the_old_dose_zh() -> None:
    messages = chat(
        "u: 今天去复查了",
        "a: 结果怎么样？",
        "u: 医生说优甲乐从 75 微克减到 62.5 微克",
        "a: 好的，每天 62.5 微克。",
    )
    texts = [text_of(e) for e in saved(extract(messages))]
    assert any("62.5" in t for t in texts)
    assert not any("75 微克" in t for t in texts)


def test_the_old_value_said_before_now_goes_zh() -> None:
    from savenow.extract.heuristic.later_values import without_old_of_change

    assert without_old_of_change("以前 line-length 是 88 现在改 100 了") == "line-length 现在改 100 了"
    # "之前的…" is no clean cut: kept
    assert without_old_of_change("之前的版本 2.3 现在 2.4") == "之前的版本 2.3 现在 2.4"


def test_the_old_value_said_before_now_goes_en() -> None:
    from savenow.extract.heuristic.later_values import without_old_of_change

    assert without_old_of_change("the limit was 88, now 100") == "the limit now 100"
