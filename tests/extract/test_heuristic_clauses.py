"""The Chinese clause cleaner (issue 12): spoken chat sentences become note statements."""

from __future__ import annotations

import pytest

from savenow.extract.heuristic.clauses import clean_zh_statement, zh_clauses


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("先改成 6381 吧", "先改成 6381"),  # a sentence-final particle
        ("那以后是每周四 17:00，少年宫三楼。", "以后是每周四 17:00，少年宫三楼。"),  # a discourse opener
        ("也就是说周三放学从 16:30 提前到 15:40。", "周三放学从 16:30 提前到 15:40。"),
        ("收到了 chat id 是 -1002231847765", "chat id 是 -1002231847765"),  # an acknowledgement
        ("只能 key 登录对吧", "只能 key 登录。"),  # a question tag
    ],
)
def test_openers_and_particles_go(said: str, stated: str) -> None:
    assert clean_zh_statement(said) == stated


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("等下，6381 是 sentinel 在用的，我差点忘了", "6381 是 sentinel 在用的。"),
        ("你最近 emoji 有点多, 以后回复里别用 emoji 了, 看着很乱", "回复里别用 emoji 了。"),
        ("我爸复查血压了，记一下医生说的", "我爸复查血压了。"),  # 我爸 is a person, not the speaker
    ],
)
def test_chat_only_clauses_go_when_the_fact_stands_without_them(said: str, stated: str) -> None:
    assert clean_zh_statement(said) == stated


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("以后回我先一句话给结论 需要细节我再问", "回复先一句话给结论，需要细节再问。"),
        ("commit message 一律英文 别给我中文的", "commit message 一律英文，别给中文的。"),
    ],
)
def test_first_person_about_replies_becomes_a_statement(said: str, stated: str) -> None:
    assert clean_zh_statement(said) == stated


def test_reported_speech_keeps_its_source() -> None:
    # the source stays, the saying and the speaker's 以后 go (was "学院说：…", "徐姐说：以后 …")
    assert clean_zh_statement("学院说统一用 thuthesis") == "学院：统一用 thuthesis"
    assert clean_zh_statement("徐姐说了 以后 PO 只认微信上发的") == "徐姐：PO 只认微信上发的。"
    assert clean_zh_statement("我说了 以后不用 Word") == "不用 Word"  # the speaker is no source


def test_a_space_between_chinese_words_is_a_clause_end_but_never_inside_a_value() -> None:
    assert zh_clauses("给结论 需要细节再问") == ["给结论", "需要细节再问"]
    assert zh_clauses("加 `(?i)`，对整个表达式生效") == ["加 `(?i)`", "对整个表达式生效"]
    assert zh_clauses("Tan 的护士 +65 8123 4690") == ["Tan 的护士 +65 8123 4690"]


@pytest.mark.parametrize(
    "kept",
    [
        "游泳班每周六 9:00，奥体中心，郑教练 13857604412。",
        "排查问题时先给结论再给命令，不要长篇分析。",
        "Redis moved to 6380.",
        "这个我记下来，以后要请假我提醒你。",  # nothing would be left: returned as it was
    ],
)
def test_a_clean_statement_or_one_that_would_empty_is_unchanged(kept: str) -> None:
    assert clean_zh_statement(kept) == kept


def test_the_assistant_narrating_loses_its_first_person() -> None:
    assert (
        clean_zh_statement("我把所有 cron job 的投递目标都改成 `-100:topic:3`，General 里不再发告警。")
        == "所有 cron job 的投递目标都改成 `-100:topic:3`，General 里不再发告警。"
    )
    assert clean_zh_statement("以后新加节点，我先检查 `NVIDIA_DRIVER_CAPABILITIES`") == (
        "新加节点，先检查 `NVIDIA_DRIVER_CAPABILITIES`"
    )


@pytest.mark.parametrize(
    "kept",
    [
        "触发条件「描述包含 美团」或「描述包含 饿了么」",  # a quotation is one value
        "NAS 上不是跑着 AdGuard 嘛，192.168.50.3",  # without 嘛 the question would say the opposite
        "CI 的 key 存在 `TS_AUTHKEY`，90 天过期，由你手动轮换。",  # who does it is part of the fact
        "周末在家庭群里先说先用",  # no speaker: a place and an adverb
    ],
)
def test_what_carries_the_fact_is_never_cut(kept: str) -> None:
    assert clean_zh_statement(kept) == kept


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        # the speaker's 以后, their "OK" and their own 我们 go with the wrapper; values stay exactly
        (
            "Dr. Tan 的护士说以后约复诊别打电话了 用诊所的 WhatsApp +65 8123 4690 约",
            "Dr. Tan 的护士：约复诊别打电话了，用诊所的 WhatsApp +65 8123 4690 约。",
        ),
        (
            "王师傅说我们用的是全合成 0W-20, 10,000 km 或者 12 个月",
            "王师傅：用的是全合成 0W-20，10,000 km 或者 12 个月。",
        ),
        (
            "老周那边说 worker 机器是 worker-03 和 worker-04 两台",
            "老周：worker 机器是 worker-03 和 worker-04 两台。",
        ),
        # a pronoun names no one: what was said is kept, the wrapper goes
        ("房东 周先生 押金 3000 他说退房验完就转", "房东，周先生，押金 3000，退房验完就转。"),
        # the report of asking someone goes; the one asked is the answer's source
        ("已经 ping Dana 了, 她说 OK, 手动 push 以前就得找她 这次也一样", "Dana：手动 push 以前就得找她。"),
        # no one else's words: left as they are
        ("可以这样说：「不好意思催一下」", "可以这样说：「不好意思催一下」"),
        ('点菜前可以说："Sou alérgico a marisco"。', '点菜前可以说："Sou alérgico a marisco"。'),
        ("之前说 150 元一袋，今天谈下来了，145 一袋", "之前说 150 元一袋，今天谈下来了，145 一袋"),
        ("她说了", "她说了"),
        # telling someone, saying often, a way of putting it: no one's words follow
        (
            "跟仓库说好了，customer order number 填 Shoplazza 订单号",
            "跟仓库说好了，customer order number 填 Shoplazza 订单号",
        ),
        ("他最近老说头晕", "他最近老说头晕"),
        ("Losartan 是医生说先不开", "Losartan 是医生说先不开"),
        ("这次不是，单纯是地址变了。", "这次不是，单纯是地址变了。"),
    ],
)
def test_reported_speech_states_the_words_with_their_source(said: str, stated: str) -> None:
    assert clean_zh_statement(said) == stated
