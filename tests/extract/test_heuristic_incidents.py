"""Symptom reports, one incident as one note, restated facts as skips, and titles (en + zh)."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

# --------------------------------------------------------------------------- A: symptom reports


def test_symptom_report_never_seeds_a_note_en() -> None:
    messages = chat(
        "u: images on the cdn return 403, the URL is like https://cdn.example.net/media/hero-banner.webp",
        "a: So https://cdn.example.net/media/hero-banner.webp gives 403. Let me check the bucket policy.",
        "u: still 403",
        "a: The root cause is the `allowed_ext` list in cdn.yaml missing webp.",
        "a: Fix: add webp to `allowed_ext` in cdn.yaml and reload.",
        "u: works now, thanks",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert "allowed_ext" in text_of(notes[0]) and "hero-banner" not in text_of(notes[0])


def test_symptom_report_is_not_a_bullet_zh() -> None:
    messages = chat(
        "u: media-sync 又在疯狂重启",
        "a: 看一下 media-sync 的日志。",
        "u: 还是在重启，502",
        "a: 找到原因了：media-sync 的 `MEDIA_ROOT` 指向了已卸载的 /mnt/nas2。",
        "a: 修法：把 `MEDIA_ROOT` 改成 /srv/media，然后 `systemctl restart media-sync`。",
        "u: 好了，不重启了",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    assert not any("疯狂重启" in bullet for bullet in notes[0].bullets)
    assert "/srv/media" in text_of(notes[0])


def test_symptom_alone_gives_no_note() -> None:
    messages = chat(
        "u: billing-svc keeps crashing, 502 on https://pay.example.net/checkout",
        "a: billing-svc returns 502 on https://pay.example.net/checkout — let me look.",
        "u: ok, later then",
    )
    assert saved(extract(messages)) == []


# --------------------------------------------------------------------------- B: one incident, one note


def test_cause_found_confirmed_and_fixed_is_one_note_zh() -> None:
    messages = chat(
        "u: 备份任务又失败了",
        "a: 找到原因了：备份脚本用的是旧的 rclone 配置。",
        "a: 确认根因：/root/.config/rclone/rclone.conf 里的 token 过期了。",
        "u: 那怎么修",
        "a: 跑 `rclone config reconnect nas-remote:`，它会重写 rclone.conf 里的 token。",
        "u: 跑了，好了",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    text = text_of(notes[0])
    assert "/root/.config/rclone/rclone.conf" in text and "rclone config reconnect" in text


def test_cause_found_confirmed_and_fixed_is_one_note_en() -> None:
    messages = chat(
        "u: the nightly export keeps crashing",
        "a: Found the cause: the exporter reads an old settings file.",
        "a: Confirmed root cause: /opt/exporter/settings.toml still points at db-old.",
        "a: Run `sed -i 's/db-old/db-main/' /opt/exporter/settings.toml` and restart.",
        "u: done, it works now",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    text = text_of(notes[0])
    assert "db-old" in text and "sed -i" in text


# --------------------------------------------------------------------------- C: restated facts


_SECTIONS = [
    MemorySection("Staging", ["staging-1: app on port 8443, config in /etc/acme/staging.yaml"], "09:00"),
    MemorySection("Backups", ["Nightly restic backup to nas-remote at 02:30."], "09:00"),
]


def test_restated_port_is_a_skip_zh() -> None:
    messages = chat(
        "u: staging 又连不上了",
        "a: 你连的是哪个端口？",
        "u: 8080",
        "a: 记住：staging 上应用监听的是 8443 端口，不是 8080。",
        "u: 对，8443，连上了",
    )
    entries = extract(messages, _SECTIONS)
    assert saved(entries) == []
    assert [e.action for e in entries] == ["skip"]


def test_restated_fact_is_a_skip_new_rule_still_merges_en() -> None:
    messages = chat(
        "u: which port did staging use",
        "a: For the record: the staging app listens on 8443.",
        "u: right, 8443 works",
        "u: also from now on backups must finish before 06:00",
        "a: Noted: backups must finish before 06:00.",
    )
    entries = extract(messages, _SECTIONS)
    assert [(e.action, e.merge_target_title) for e in saved(entries)] == [("merge", "Backups")]
    assert any(e.action == "skip" and "8443" in text_of(e) for e in entries)


# --------------------------------------------------------------------------- D: titles


def test_incident_title_names_subject_and_kind_zh() -> None:
    messages = chat(
        "u: 网关连不上，token 不匹配",
        "a: 根因是轮换 token 时只更新了 `OPENCLAW_GATEWAY_TOKEN`，没更新 `gateway.cmd`。",
        "a: 修法：把 `gateway.cmd` 里的 token 改成新值，重启网关。",
        "u: 好了，网关正常了",
    )
    notes = saved(extract(messages))
    assert len(notes) == 1
    title = notes[0].title
    # The subject in natural words, never "X：根因与修复" (a colon label the reader rejects).
    assert "网关" in title and "：" not in title and len(title) <= 40


def test_titles_are_short_noun_phrases_en() -> None:
    messages = chat(
        "u: for the record: staging config is `/etc/acme/staging.yaml` and the app listens on 8443 on staging-1",
        "a: Got it: staging config `/etc/acme/staging.yaml`, app on 8443 on staging-1.",
        "u: and from now on every prod deploy is announced in #releases with the tag",
        "a: Noted: announce every prod deploy in #releases with the tag.",
    )
    titles = [e.title for e in saved(extract(messages))]
    assert titles and all(len(t) <= 40 and not t.endswith("…") for t in titles)
    assert not any(t.endswith(" rule") for t in titles)  # no kind label after the subject (issue 12)
    # Titles only use the note's own words plus the kind: no sentence fragments like "… and the".
    assert not any(t.rstrip(": ").endswith((" and", " the")) for t in titles)


def test_owner_title_names_the_object() -> None:
    messages = chat(
        "u: Maya owns billing-service now, including on-call",
        "a: Noted: Maya owns billing-service, including on-call.",
    )
    notes = saved(extract(messages))
    assert notes and "billing-service" in notes[0].title and "owner" in notes[0].title.casefold()
