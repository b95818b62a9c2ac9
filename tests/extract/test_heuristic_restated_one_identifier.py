"""A chat sentence whose one identifier a saved bullet holds, with no identifier or number of its own,
restates that bullet: it is reported as a skip in the bullet's wording (DESIGN §7)."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract


def test_one_saved_identifier_restated_is_a_skip_en() -> None:
    sections = [
        MemorySection(
            "Offsite backups", ["restic to Backblaze B2 bucket `hq-restic`, run by a systemd timer."]
        )
    ]
    messages = chat(
        "u: the nightly backup log is clean again",
        "a: Good to hear.",
        "u: Bucket is still hq-restic on b2",
        "a: Right.",
    )
    skips = [e for e in extract(messages, sections) if e.action == "skip"]
    assert skips and skips[0].title == "Offsite backups"
    assert skips[0].bullets == ["restic to Backblaze B2 bucket `hq-restic`, run by a systemd timer."]


def test_one_saved_identifier_restated_is_a_skip_zh() -> None:
    sections = [MemorySection("监控 mon-01", ["告警发到飞书 webhook，机器人叫 `mon-bot`。"])]
    messages = chat(
        "u: 今天把 Grafana 的面板整理了一下",
        "a: 好的。",
        "u: 告警还是走飞书 mon-bot",
        "a: 嗯。",
    )
    skips = [e for e in extract(messages, sections) if e.action == "skip"]
    assert skips and skips[0].title == "监控 mon-01"
    assert "mon-bot" in skips[0].bullets[0]


def test_a_number_the_bullet_lacks_is_no_restatement_en() -> None:
    # "20%" is new: the 20 inside the saved address is no 20 percent.
    sections = [MemorySection("Proxmox (pve-01)", ["Proxmox VE 8.2 on pve-01 (10.0.20.5)"])]
    messages = chat(
        "u: NUT on pve-01 talking to the UPS, shutdown at 20% battery",
        "a: OK.",
    )
    entries = extract(messages, sections)
    assert not [e for e in entries if e.action == "skip" and e.title == "Proxmox (pve-01)"]


def test_a_number_the_bullet_lacks_is_no_restatement_zh() -> None:
    sections = [MemorySection("机房监控", ["server 1 的 node_exporter 在 `idc-01`，端口 9100。"])]
    messages = chat(
        "u: idc-01 的内存加到 64 G 了",
        "a: 好。",
    )
    entries = extract(messages, sections)
    assert not [e for e in entries if e.action == "skip" and e.title == "机房监控"]


def test_a_fact_said_to_still_hold_is_a_skip_en() -> None:
    sections = [MemorySection("Staff rota", ["Marta opens Tue-Thu, Ollie weekends."])]
    messages = chat(
        "u: new espresso grinder arrived today",
        "a: Nice.",
        "u: Marta still opens tue to thu",
        "a: Noted.",
    )
    skips = [e for e in extract(messages, sections) if e.action == "skip"]
    assert [s.title for s in skips] == ["Staff rota"]
    assert skips[0].bullets == ["Marta opens Tue-Thu, Ollie weekends."]


def test_a_fact_said_to_still_hold_is_a_skip_zh() -> None:
    sections = [MemorySection("复诊安排", ["妈妈在市一医院心内科看刘主任，每三个月复诊一次。"])]
    messages = chat(
        "u: 今天陪妈妈去医院了",
        "a: 辛苦了。",
        "u: 刘主任说还是三个月复查一次",
        "a: 好的。",
    )
    skips = [e for e in extract(messages, sections) if e.action == "skip"]
    assert [s.title for s in skips] == ["复诊安排"]


def test_still_with_a_number_the_bullet_lacks_is_no_skip_en() -> None:
    sections = [MemorySection("Staff rota", ["Marta opens Tue-Thu, Ollie weekends."])]
    messages = chat("u: Marta still opens tue to thu but from 07:30 now", "a: Noted.")
    assert not [e for e in extract(messages, sections) if e.action == "skip"]


def test_still_with_a_number_the_bullet_lacks_is_no_skip_zh() -> None:
    sections = [MemorySection("复诊安排", ["妈妈在市一医院心内科看刘主任，每三个月复诊一次。"])]
    messages = chat("u: 刘主任说还是三个月复查一次，药量改成 10 mg", "a: 好的。")
    assert not [e for e in extract(messages, sections) if e.action == "skip"]


def test_a_saved_identifier_in_an_unrelated_remark_is_no_skip_en() -> None:
    sections = [MemorySection("Vaultwarden", ["Vaultwarden runs on `pi-attic` via docker compose."])]
    messages = chat("u: also pi-attic fan is loud tonight", "a: Might be worth cleaning it.")
    assert not [e for e in extract(messages, sections) if e.action == "skip"]


def test_a_saved_identifier_in_an_unrelated_remark_is_no_skip_zh() -> None:
    sections = [MemorySection("训练机", ["`ws-titan`：Ubuntu 22.04，conda 环境 `vlm`。"])]
    messages = chat("u: ws-titan 上 DDP 训练卡住了 一直不动", "a: 先看下日志。")
    assert not [e for e in extract(messages, sections) if e.action == "skip"]


def test_a_saved_identifier_said_to_be_there_already_is_a_skip_en() -> None:
    sections = [MemorySection("Personal tooling", ["kubectx/kubens aliases in ~/.zshrc; k9s for browsing."])]
    messages = chat(
        "u: we moved the ingress to the new chart today",
        "a: Good.",
        "u: k9s is already in my toolbox",
        "a: Right.",
    )
    skips = [e for e in extract(messages, sections) if e.action == "skip"]
    assert [s.title for s in skips] == ["Personal tooling"]
