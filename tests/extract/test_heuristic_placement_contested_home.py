"""Placement: a contested home — two sections share the chat, close in score, so neither is its home —
sends a note under the one whose bullets it shares a term with (a heading word, an identifier, two
names), when it shares nothing with the other; a note touching both, or only by the one name the
whole chat uses, keeps its own place. savenow's bullet labels count for no home."""

from __future__ import annotations

from savenow.extract.heuristic.placement import ContestedHome, place, topic_home
from savenow.models import MemorySection

BACKUPS = MemorySection(
    "Offsite backups",
    ("restic to Backblaze B2 nightly via restic-backup.timer.", "Keep 7 daily and 4 weekly snapshots."),
)
PRINTER = MemorySection("Printer", ("Brother HL-L2350DW on the office shelf, toner TN-2420.",))
CHAT_EN = [
    "the offsite backups keep colliding with the printer's scan job",
    "restic runs at the same time as the Brother scan job, and the toner is low too",
    "move the backup later then, the printer can stay",
]


class _B:
    def __init__(self, bullet: str) -> None:
        self.bullet = bullet
        self.ids: frozenset[str] = frozenset()


def _place(text: str, sections: list[MemorySection], home: MemorySection | None):
    return place([_B(text)], frozenset(), set(), False, sections, home)


def test_two_close_sections_make_a_contested_home_en() -> None:
    home = topic_home(CHAT_EN, [BACKUPS, PRINTER])
    assert isinstance(home, ContestedHome)
    assert {home.title, home.rival.title} == {"Offsite backups", "Printer"}


def test_a_note_sharing_two_names_with_one_contested_section_merges_there_en() -> None:
    sections = [BACKUPS, PRINTER]
    home = topic_home(CHAT_EN, sections)
    placement = _place("Moved the restic timer to 03:30.", sections, home)
    assert placement is not None and (placement.action, placement.section_title) == (
        "merge",
        "Offsite backups",
    )
    # Without the contested home the same note is added: no section's affinity reaches a merge.
    assert _place("Moved the restic timer to 03:30.", sections, None).action == "add"


def test_one_shared_name_is_no_link_between_contested_sections_en() -> None:
    sections = [BACKUPS, PRINTER]
    home = topic_home(CHAT_EN, sections)
    assert _place("Restic must finish before 07:00.", sections, home).action == "add"


NAS = MemorySection("NAS", ("群晖 DS923+，照片和 Jellyfin 都跑在上面。", "每晚 Hyper Backup 到 B2。"))
ROUTER = MemorySection("路由器", ("小米 AX6000，每晚 23:00 关 WiFi 访客网。",))
CHAT_ZH = [
    "NAS 晚上一直不休眠，是不是路由器那边在扫描",
    "Hyper Backup 每晚几点跑的？群晖的日志里看得到",
    "路由器没问题，就是 NAS 的备份任务，把它挪到 23:30",
]


def test_two_close_sections_make_a_contested_home_zh() -> None:
    home = topic_home(CHAT_ZH, [NAS, ROUTER])
    assert isinstance(home, ContestedHome)


def test_a_note_naming_one_contested_heading_merges_there_zh() -> None:
    sections = [NAS, ROUTER]
    home = topic_home(CHAT_ZH, sections)
    placement = _place("NAS 的硬盘休眠改为 20 分钟。", sections, home)
    assert placement is not None and (placement.action, placement.section_title) == ("merge", "NAS")
    assert _place("NAS 的硬盘休眠改为 20 分钟。", sections, None).action == "add"


def test_a_note_touching_both_contested_sections_is_added_zh() -> None:
    sections = [NAS, ROUTER]
    home = topic_home(CHAT_ZH, sections)
    assert _place("晚上限速的时候访客网和 Jellyfin 都别动。", sections, home).action == "add"


# savenow's bullet labels ("根因：", "Fix:") are no evidence for any home: every incident chat writes them.
PHOTOS_ZH = MemorySection("照片同步", ("Immich 每晚同步手机相册。",))
SERVER_ZH = MemorySection("服务器", ("根因：硬盘写满。", "修复：清理旧快照。"))
PHOTOS_EN = MemorySection("Photo sync", ("Immich syncs the phone album nightly.",))
SERVER_EN = MemorySection(
    "Server", ("Root cause: the journal filled the disk.", "Fix: vacuum the journal weekly.")
)


def test_bullet_labels_give_no_section_a_share_of_the_chat_zh() -> None:
    chat_zh = ["照片同步又失败了，根因找到了吗", "Immich 的日志说手机相册没权限", "修复了，重新授权就好"]
    home = topic_home(chat_zh, [SERVER_ZH, PHOTOS_ZH])
    assert home is not None and not isinstance(home, ContestedHome) and home.title == "照片同步"


def test_bullet_labels_give_no_section_a_share_of_the_chat_en() -> None:
    chat_en = [
        "the photo upload failed again, root cause?",
        "Immich says the album lost permission",
        "fix: granted again",
    ]
    home = topic_home(chat_en, [SERVER_EN, PHOTOS_EN])
    assert home is not None and not isinstance(home, ContestedHome) and home.title == "Photo sync"
