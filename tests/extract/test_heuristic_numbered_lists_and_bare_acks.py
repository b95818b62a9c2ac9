"""A numbered list of facts inside one user message, taken in by the assistant's acknowledgement;
rules answered with a bare "understood" / "ok"; a short request to note the assistant's rule (en + zh)."""

from __future__ import annotations

from tests.extract.support import chat, extract, saved, text_of

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


# --------------------------------------------------------------------------- rules taken on board without a restatement


def test_rule_with_tag_question_answered_understood_is_a_note_en() -> None:
    messages = chat(
        "u: the backup script failed again, token was empty",
        "a: The vault was locked; unlock it inside the script.",
        "u: patched it, works now",
        "u: and never put secrets in /etc/cron.d files, for any script. ok?",
        "a: Understood.",
        "u: grabbing coffee",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("/etc/cron.d" in t for t in texts)
    assert not any("coffee" in t for t in texts)


def test_rule_answered_bare_ok_is_a_note_zh() -> None:
    messages = chat(
        "u: 今天把 NAS 的共享整理了一下",
        "a: 好的，整理完了吗？",
        "u: 完了",
        "u: 以后 /srv/share/tmp 里的东西一律七天后自动删，对吧？",
        "a: 好的。",
    )
    # a real question, not a tag: not a rule the user set
    assert not any("/srv/share/tmp" in text_of(n) for n in saved(extract(messages)))
    messages = chat(
        "u: 今天把 NAS 的共享整理了一下",
        "a: 好的，整理完了吗？",
        "u: 完了",
        "u: 以后 /srv/share/tmp 里的东西一律七天后自动删。行吗？",
        "a: 明白。",
    )
    assert any("/srv/share/tmp" in text_of(n) for n in saved(extract(messages)))


def test_short_request_to_note_after_assistant_rule_keeps_it_zh() -> None:
    messages = chat(
        "u: 照片备份连着失败三天，401",
        "a: 改密码会吊销 token，Duplicati 存的 AuthID 作废了。重新授权就好。",
        "u: 重新授权了，好了",
        "a: 好。以后改了 Microsoft 密码，记得顺手重新生成 Duplicati 的 AuthID。",
        "u: ok 记一下",
        "u: 去洗澡了",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("authid" in t and "密码" in t for t in texts)
    assert not any("洗澡" in t for t in texts)


def test_short_request_to_note_after_assistant_rule_keeps_it_en() -> None:
    messages = chat(
        "u: the nightly job died again",
        "a: It ran out of disk on /var/tmp.",
        "a: From now on, point TMPDIR at /data/tmp for every batch job.",
        "u: ok remember that",
        "u: lol my cat just knocked over the plant",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("/data/tmp" in t for t in texts)
    assert not any("cat" in t for t in texts)
