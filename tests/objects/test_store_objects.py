"""The object store directly: maintenance with an injected clock, decay at read time, concurrency."""

from __future__ import annotations

import multiprocessing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from savenow.clock import Clock
from savenow.objects import files
from savenow.objects.model import near_name, parse_upsert
from savenow.objects.store import ObjectStore, effective_confidence

T0 = datetime.fromisoformat("2026-11-01T10:00:00+00:00")
TOPIC = {"type": "topic", "name": "Allotment plan", "status": "active", "summary": "Grow vegetables",
         "recent_conclusions": ["raised beds"], "source_refs": [{"kind": "file", "path": "notes/plot.md"}]}  # fmt: skip


def _store(workspace: Path, when: datetime) -> ObjectStore:
    return ObjectStore(workspace, Clock(tz=UTC, fixed=when))


def test_maintenance_pauses_then_archives_idle_topics_and_is_idempotent(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "plot.md").write_text("plot", encoding="utf-8")
    _store(tmp_path, T0).upsert(parse_upsert(TOPIC))
    [path] = sorted((tmp_path / "memory" / "objects").rglob("*.md"))

    assert _store(tmp_path, T0 + timedelta(days=13)).maintain()["changed"] == 0
    report = _store(tmp_path, T0 + timedelta(days=15)).maintain()
    assert len(report["paused"]) == 1 and "status: paused" in path.read_text(encoding="utf-8")
    settled = path.read_bytes()
    assert _store(tmp_path, T0 + timedelta(days=15)).maintain()["changed"] == 0
    assert path.read_bytes() == settled  # idempotent: not even the timestamps move

    (tmp_path / "notes" / "plot.md").unlink()
    report = _store(tmp_path, T0 + timedelta(days=61)).maintain()
    assert len(report["archived"]) == 1 and len(report["vanished"]) == 1
    text = path.read_text(encoding="utf-8")
    assert "status: archived" in text and "vanished: '2027-01-01'" in text
    assert "confirmed: '2026-11-01T10:00:00+00:00'" in text  # maintenance never stamps `confirmed`
    assert _store(tmp_path, T0 + timedelta(days=62)).maintain()["changed"] == 0

    # Activity reactivates.
    later = _store(tmp_path, T0 + timedelta(days=70))
    later.upsert(parse_upsert({**TOPIC, "recent_conclusions": ["got plot 14B"]}))
    assert "status: active" in path.read_text(encoding="utf-8")


def test_confidence_decays_at_read_time_without_rewriting_the_file(tmp_path: Path) -> None:
    store = _store(tmp_path, T0)
    store.upsert(parse_upsert({"type": "self", "key": "city", "summary": "Leeds", "confidence": 0.8}))
    [path] = sorted((tmp_path / "memory" / "objects").rglob("*.md"))
    before = path.read_bytes()
    [item] = store.load()
    now = effective_confidence(item.obj, item.parsed.meta["confirmed"], T0)
    later = effective_confidence(item.obj, item.parsed.meta["confirmed"], T0 + timedelta(days=180))
    assert now == 0.8 and later == 0.4
    _store(tmp_path, T0 + timedelta(days=400)).maintain()
    assert path.read_bytes() == before


def _worker(workspace: str, worker: int, start: object) -> None:
    start.wait()  # type: ignore[attr-defined]
    store = ObjectStore(Path(workspace), Clock(fixed=T0))
    for number in range(8):
        store.upsert(parse_upsert({"type": "relationship", "name": "Priya", "summary": "colleague",
                                   "facts": [f"fact {worker}-{number}"]}))  # fmt: skip


def test_concurrent_upserts_from_several_processes_lose_nothing(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    start = context.Event()
    workers = [context.Process(target=_worker, args=(str(tmp_path), w, start)) for w in range(4)]
    for process in workers:
        process.start()
    start.set()
    for process in workers:
        process.join(60)
        assert process.exitcode == 0
    [item] = ObjectStore(tmp_path).load()
    assert sorted(item.obj.facts) == sorted(f"fact {w}-{n}" for w in range(4) for n in range(8))
    assert len(list((tmp_path / "memory" / "objects").rglob("*.md"))) == 1
    assert item.parsed.meta["rev"] == 32


def test_near_names() -> None:
    assert near_name("张姐", "张姐姐") and near_name("王姨", "王阿姨") and near_name("Dan", "Daniel Ho")
    assert near_name("Daniel", "Daniel Ho")
    assert not near_name("张姐", "李姐") and not near_name("Dan", "Hana") and not near_name("Ann", "Ann")


def test_file_round_trip_keeps_crlf_and_bom(tmp_path: Path) -> None:
    store = _store(tmp_path, T0)
    store.upsert(parse_upsert({**TOPIC, "source_refs": []}))
    [path] = sorted((tmp_path / "memory" / "objects").rglob("*.md"))
    crlf = "\ufeff" + path.read_text(encoding="utf-8").replace("\n", "\r\n") + "User text\r\n"
    path.write_bytes(crlf.encode("utf-8"))
    store.upsert(parse_upsert({**TOPIC, "source_refs": [], "open_questions": ["which site"]}))
    text = path.read_bytes().decode("utf-8")
    assert text.startswith("\ufeff---\r\n") and "\n" not in text.replace("\r\n", "")
    assert "User text\r\n" in text and "## Open questions\r\n- which site\r\n" in text
    parsed = files.parse(text)
    assert parsed is not None and parsed.obj.open_questions == ["which site"]


def test_more_name_forms() -> None:
    assert near_name("老王", "王建国") and near_name("王总", "王建国") and near_name("Mike", "Michael Chen")
    assert not near_name("老李", "王建国") and not near_name("王建国", "王建军")


def test_given_name_and_title_forms() -> None:
    assert near_name("小雯", "李雯") and near_name("雯雯", "李雯") and near_name("Mr Patel", "Raj Patel")
    assert not near_name("小王", "李雯") and not near_name("雯雯", "李静")
