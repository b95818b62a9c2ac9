"""Fix snippets: a lead-in that only names the file keeps a multi-line snippet; config lines the
user applied and saw work are the fix (en + zh)."""

from __future__ import annotations

from tests.extract.support import chat, extract, saved, text_of

# --------------------------------------------------------------------------- "Fix in `file`:" + a snippet


def test_fix_lead_in_naming_its_file_keeps_a_multi_line_snippet_en() -> None:
    messages = chat(
        "u: the exporter stopped scraping the second disk",
        "a: Which collectors are enabled? Run `node_exporter --help | grep textfile`.",
        "u: only the default ones",
        "a: That's it. The disk collector ignores `sdb` because of the default exclude pattern.\n"
        "Fix in `/etc/default/node-exporter.yaml`:\n"
        "```yaml\ncollectors:\n  diskstats:\n    device_exclude: '^(ram|loop)\\d+$'\n```",
        "u: done, sdb shows up now",
        "a: Good.",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("device_exclude" in t for t in texts)


def test_fix_lead_in_naming_its_file_keeps_a_multi_line_snippet_zh() -> None:
    messages = chat(
        "u: frigate 录像一直只保留一天",
        "a: 你现在的 retain 配置是什么？",
        "u: 没改过，默认的",
        "a: 原因找到了：默认 `record.retain.days` 是 1，所以只留一天。\n"
        "修法在 `/opt/frigate/config.yml`：\n"
        "```yaml\nrecord:\n  enabled: true\n  retain:\n    days: 14\n```",
        "u: 改了，重启好了",
        "a: 好。",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("days: 14" in t for t in texts)


def test_a_long_lead_in_still_keeps_only_short_snippets() -> None:
    messages = chat(
        "u: what does the default config of the exporter look like?",
        "a: Here is the whole default file as it ships in the package, for reference:\n"
        "```yaml\ncollectors:\n  diskstats: {}\n  cpu: {}\n  meminfo: {}\n```",
        "u: thanks",
    )
    assert not saved(extract(messages))


# --------------------------------------------------------------------------- config lines applied, then working


def test_config_lines_applied_and_working_are_the_fix_en() -> None:
    messages = chat(
        "u: grafana shows a blank page after the upgrade",
        "a: The new version checks the public address. Add this to the compose file:\n"
        "```yaml\nenvironment:\n  - GF_SERVER_DOMAIN=grafana.home.lan\n```",
        "u: ok added it, up -d",
        "u: works now 👍",
        "a: 👍",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("gf_server_domain" in t for t in texts)


def test_config_lines_applied_and_working_are_the_fix_zh() -> None:
    messages = chat(
        "u: jellyfin 升级之后外网打不开了",
        "a: 新版要求声明发布地址。在 compose 里加：\n"
        "```yaml\nenvironment:\n  - JELLYFIN_PublishedServerUrl=https://tv.home.cn\n```",
        "u: ok 加了 重启了",
        "u: 好了 出来了",
        "a: 好。",
    )
    texts = [text_of(n) for n in saved(extract(messages))]
    assert any("jellyfin_publishedserverurl" in t for t in texts)


def test_config_lines_that_did_not_help_are_no_fix() -> None:
    messages = chat(
        "u: jellyfin 升级之后外网打不开了",
        "a: 在 compose 里加：\n```yaml\nenvironment:\n  - JELLYFIN_PublishedServerUrl=https://tv.home.cn\n```",
        "u: 加了，还是不行",
        "a: 那看下日志？",
    )
    assert not any("jellyfin_publishedserverurl" in text_of(n) for n in saved(extract(messages)))
