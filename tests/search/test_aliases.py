"""The alias graph: who is who and what is what, read from the workspace's own statements."""

from __future__ import annotations

from savenow.search import MemorySearch
from savenow.search.aliases import label_groups

from .conftest import TODAY


def test_standing_facts_give_label_groups() -> None:
    text = (
        "## People\n- 林晓（晓晓，老婆）：生日 3 月 8 日。\n- 刘姐：房东。孙会计：代账公司的会计。\n"
        "- Family: 老公 阿杰 (works at a startup), 女儿朵朵（8 岁）、猫 Mochi\n"
        "## Machines\n- pi-garage: Raspberry Pi 5, Pi-hole and Zigbee2MQTT.\n"
    )
    groups = label_groups(text, standing=True)
    assert ("林晓", "晓晓", "老婆") in groups
    assert ("刘姐", "房东") in groups and ("孙会计", "代账公司的会计") in groups
    assert ("老公", "阿杰") in groups and ("女儿", "朵朵") in groups and ("猫", "Mochi") in groups
    assert ("pi-garage", "Raspberry Pi 5") in groups
    assert not any("生日 3 月 8 日" in group for group in groups)  # an attribute, not who she is


def test_daily_notes_define_only_named_things_and_glosses() -> None:
    text = (
        "## 10:00 - 排查\n- 原因：R2 没有出口流量费\n- Next rotation: early November.\n"
        "- media-01: Debian 12 + Docker\n- pi-study is the Raspberry Pi in the study\n"
        "- 降压药: 氨氯地平 (amlodipine) 5mg\n- Jellyfin (LXC 102) 重启了\n- 晚上 20:00 看片\n"
    )
    groups = label_groups(text)
    assert ("media-01", "Debian 12 + Docker") in groups
    assert ("pi-study", "Raspberry Pi in the study") in groups
    assert ("氨氯地平", "amlodipine") in groups
    assert all(group[0] not in ("原因", "Next rotation", "Jellyfin", "晚上 20") for group in groups)


def test_a_role_in_the_query_finds_the_name_in_the_note(search: MemorySearch) -> None:
    # MEMORY.md says 小雨（老婆）; the note says 小雨喜欢白色桔梗; the question says "my wife".
    results = search.search("what does my wife like about flowers").results
    assert results and "桔梗" in results[0].snippet
    assert results[0].score < 1.0  # through an alias: a discount, never a full match
    assert search.search("老婆生日").results[0].path == "MEMORY.md"


def test_an_unrelated_query_gets_nothing_from_the_aliases(search: MemorySearch) -> None:
    assert search.search("husband's passport number").results == []
    assert MemorySearch(search.workspace, today=TODAY).search("Tom 喜欢什么花").results[0].path in (
        "memory/2026-04-11.md",
        "MEMORY.md",
    )


def test_a_name_said_outright() -> None:
    assert ("老婆", "晓晓") in label_groups("- 我老婆叫晓晓，喜欢花")
    assert ("cat", "Mochi") in label_groups("- our cat is called Mochi.")
    assert ("daughter", "Doudou") in label_groups("- my daughter Doudou starts school")
    assert label_groups("- 晚上 20:00 不要重启 media-01") == []


def test_a_synonym_of_the_query_word_can_find_a_label() -> None:
    from savenow.search.aliases import alias_alternatives

    groups = [(frozenset({"pve-xixi"}), frozenset({"proxmox", "主机"}))]
    # 服务器 (bigrams 服务, 务器) said otherwise as 主机 finds the label "Proxmox 主机" → pve-xixi.
    found = alias_alternatives(["服务", "务器"], groups, [(("服务", "务器"), ("主机",))])
    assert found == [(("务器", "服务"), ("pve-xixi",))]
    assert alias_alternatives(["服务", "务器"], groups) == []
