"""Classes a blind "closing" set exposed (en + zh): a numbered list of facts inside one user
message, taken in by the assistant's acknowledgement."""

from __future__ import annotations

from tests.extract.test_heuristic_conversations import chat, extract, saved, text_of

# --------------------------------------------------------------------------- a numbered list in one message


def test_numbered_list_in_one_message_gives_one_note_per_item_en() -> None:
    messages = chat(
        "u: here is the NAS, numbered so it's easy\n"
        "1. hostname vault-2, static IP 192.168.7.40, ssh as `admin`\n"
        "2. the media share lives at /volume1/media. never move it\n"
        "3. nightly snapshots at 02:30, kept 14 days via Btrfs\n"
        "4. minor: the fan is a bit loud",
        "a: Got it. Is 192.168.7.40 reserved on the router?",
        "u: yes",
        "u: thanks, that's all",
        "a: 👍",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("192.168.7.40" in t for t in texts)
    assert any("/volume1/media" in t for t in texts)
    assert any("02:30" in t for t in texts)
    assert not any("fan" in t for t in texts)  # the item the user calls minor
    assert not any("192.168.7.40" in t and "/volume1/media" in t for t in texts)  # one note per item


def test_numbered_list_in_one_message_gives_one_note_per_item_zh() -> None:
    messages = chat(
        "u: 软路由的情况我列一下\n"
        "1. 管理地址 10.0.0.1，端口 8443\n"
        "2. 配置备份在 /etc/config/backup.tar.gz\n"
        "3. 以后升级固件前必须先导出配置",
        "a: 收到。",
        "u: 好",
    )
    notes = saved(extract(messages))
    texts = [text_of(n) for n in notes]
    assert any("10.0.0.1" in t for t in texts)
    assert any("/etc/config/backup.tar.gz" in t for t in texts)
    assert any("导出配置" in t for t in texts)
    assert len(notes) == 3


def test_numbered_chores_without_values_are_not_a_handover() -> None:
    messages = chat(
        "u: todo for today\n1. buy milk\n2. call mum\n3. tidy the garage",
        "a: Got it, good luck!",
        "u: thx",
    )
    assert saved(extract(messages)) == []
