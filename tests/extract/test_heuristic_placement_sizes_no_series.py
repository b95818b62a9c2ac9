"""Placement: a size is no member of a series ("2TB" beside a saved "4TB", "32GB" beside "16GB" are
amounts of anything), so it pulls no unrelated note under a section; names with letters or a
separator before their digits still do (review of round fourteen, item 2)."""

from __future__ import annotations

from savenow.extract.heuristic.placement import _siblings
from savenow.models import MemorySection

from .placing import placed as _placed

NAS = MemorySection("NAS", ("Synology DS224+ with two 4TB drives in RAID 1.", "Router has 16GB of RAM."))
ZH_NAS = MemorySection("NAS", ("群晖 DS224+，两块 4TB 硬盘做 RAID 1。", "路由器内存 16GB。"))


def test_sizes_are_no_series_but_names_are() -> None:
    assert not _siblings({"2tb"}, {"4tb"})
    assert not _siblings({"32gb"}, {"16gb"})
    assert _siblings({"v0.9.3"}, {"v0.9.2"})
    assert _siblings({"gpu-02"}, {"gpu-01"})
    assert _siblings({"db-2"}, {"db-1"})


def test_a_drive_for_the_photos_is_not_merged_under_the_nas_en() -> None:
    assert _placed("Bought a 2TB SSD for the Sony photos.", [NAS]) == ("add", None)


def test_a_drive_for_the_photos_is_not_merged_under_the_nas_zh() -> None:
    assert _placed("买了一块 2TB 的固态给索尼的照片。", [ZH_NAS]) == ("add", None)
