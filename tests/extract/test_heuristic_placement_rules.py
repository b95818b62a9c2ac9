"""Placement: a user's rule in the topic's chat merges into the topic home; an incident on a section's host merges."""

from __future__ import annotations

from savenow.models import MemorySection
from tests.extract.support import chat, extract, saved, text_of

GRAFANA = MemorySection(
    "Grafana",
    (
        "Grafana runs at `grafana.ops.lan`; alerting is provisioned from the repo `ops/grafana-provisioning`.",
        "The default contact point is `email-ops`.",
    ),
)
ONCALL = MemorySection("On-call", ("Rotation lives in PagerDuty, schedule `platform-primary`.",))


def test_user_rule_in_the_topic_chat_merges_into_the_topic_home_en() -> None:
    messages = chat(
        "u: grafana alerts from the disk rule went to email-ops again, nobody reads that",
        "a: The rule in `ops/grafana-provisioning` has label `team=database` but the route matches `team=db`, "
        "so it falls through to `email-ops` on grafana.ops.lan.",
        "u: ugh. grafana provisioning is such a maze",
        "a: I can fix the label in the provisioning repo.",
        "u: from now on unrouted alerts always go to the Slack channel #alerts-unrouted",
        "a: Noted: unrouted alerts always go to #alerts-unrouted.",
    )
    notes = [n for n in saved(extract(messages, [GRAFANA, ONCALL])) if "#alerts-unrouted" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "Grafana"


DB = MemorySection(
    "数据库集群",
    ("主库 `pg-main-1`，只读副本 `pg-replica-2`，流复制，PG 15。", "报表只连副本，不连主库。"),
)
TODO = MemorySection("待办", ("周三前扩容数据盘。",))


def test_incident_on_a_host_the_section_describes_merges_there_zh() -> None:
    messages = chat(
        "u: 副本延迟又到了四十多分钟",
        "a: 看了一下，`max_standby_streaming_delay = -1`，回放一直在等长查询。",
        "u: 改了 reload 了，追上了",
        "a: 好。根因：副本 `pg-replica-2` 上 `max_standby_streaming_delay = -1`，长查询让回放无限等待；已改为 30s。",
        "u: 谢了",
    )
    notes = [n for n in saved(extract(messages, [DB, TODO])) if "max_standby_streaming_delay" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "merge" and notes[0].merge_target_title == "数据库集群"


def test_incident_that_only_mentions_a_host_in_passing_is_added_zh() -> None:
    nas = MemorySection("NAS", ("群晖，内网地址 `192.168.50.10`。",))
    messages = chat(
        "u: 手机解析不到内网域名",
        "a: 根因：手机开了私人 DNS，绕过了 `192.168.50.2`。修复：私人 DNS 改成自动。",
        "u: 改成自动了，好了",
        "a: 现在 `photos.home.lan` 解析到 `192.168.50.10`。",
    )
    notes = [n for n in saved(extract(messages, [nas])) if "192.168.50.2" in text_of(n)]
    assert len(notes) == 1
    assert notes[0].action == "add"
