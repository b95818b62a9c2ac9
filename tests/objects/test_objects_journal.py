"""Objects changes in the shared change log (DESIGN §8, §14): one group per change, undone whole and
byte for byte by `savenow objects undo`; `savenow undo` keeps to memory writes; the log of earlier
versions (``.savenow/objects/journal.jsonl``) stays undoable."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from savenow.objects.store import ObjectStore
from savenow.storage.journal import journal_path, read_records, write_logged
from tests.objects.conftest import Install, Runner

WANG = {"type": "relationship", "name": "张姐姐", "relation": "housekeeper", "summary": "家里的钟点工",
        "facts": ["每周一上午来"]}  # fmt: skip


EMPTY_TOMBSTONES = b'{\n "tombstones": []\n}\n'


def state(workspace: Path) -> dict[str, bytes]:
    """The files an objects change may touch: objects, trash, tombstones (an empty tombstone list is
    the store's way of saying "none": the first forget writes it before its change, never undone)."""
    keep = ("memory/objects/", ".savenow/objects/trash/", ".savenow/objects/tombstones.json")
    found = {}
    for path in sorted(workspace.rglob("*")):
        rel = path.relative_to(workspace).as_posix()
        if path.is_file() and rel.startswith(keep) and path.read_bytes() != EMPTY_TOMBSTONES:
            found[rel] = path.read_bytes()
    return found


def test_a_forget_is_one_group_of_files_and_undo_takes_all_of_it_back(
    install: Install, savenow: Runner
) -> None:
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    before = state(install.workspace)
    assert savenow("objects", "forget", "张姐姐")[0] == 0
    writes = [r for r in read_records(install.workspace) if r["type"] == "write"]
    forget = [r for r in writes if r.get("action") == "forget"]
    assert {r["kind"] for r in writes} == {"objects"} and len({r["group"] for r in forget}) == 1
    assert sorted(Path(r["memoryPath"]).parent.name for r in forget) == ["objects", "relationship", "trash"]
    assert all(
        r["hunks"] == [] for r in writes
    )  # the bytes live in copies a purge can delete, not in the log
    assert not (install.workspace / ".savenow" / "objects" / "journal.jsonl").exists()  # no second log
    assert savenow("objects", "undo")[0] == 0
    assert state(install.workspace) == before
    undos = [r for r in read_records(install.workspace) if r["type"] == "undo"]
    assert len(undos) == 3 and len({r["group"] for r in undos}) == 1
    assert all(r["state"] == "committed" for r in read_records(install.workspace))


def test_memory_undo_keeps_to_memory_writes_and_objects_undo_to_objects(
    install: Install, savenow: Runner
) -> None:
    note = install.workspace / "memory" / "2026-11-29.md"
    write_logged(install.workspace, note, lambda text: "# 2026-11-29\n- a note\n", kind="memory", time="t")
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    [obj] = install.object_files()
    status, out, _ = savenow("undo", "--list", "--json")
    assert status == 0 and [Path(w["path"]).name for w in json.loads(out)["writes"]] == ["2026-11-29.md"]
    assert savenow("undo")[0] == 0
    assert not note.exists() and obj.exists()  # the newer objects change is not memory undo's
    status, _, err = savenow("undo")
    assert status == 2 and "already undone" in err and obj.exists()
    assert savenow("objects", "undo")[0] == 0 and not obj.exists()


def test_a_purge_leaves_no_copy_of_the_object_anywhere(install: Install, savenow: Runner) -> None:
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    savenow("objects", "upsert", "--json-file", install.seed({**WANG, "facts": ["周五也来"]}, "b.json"))
    savenow("objects", "forget", "张姐姐")
    copies = install.workspace / ".savenow" / "objects" / "blobs"
    assert any("每周一上午来" in p.read_text(encoding="utf-8") for p in copies.iterdir())
    [trashed] = (install.workspace / ".savenow" / "objects" / "trash").iterdir()
    object_id = trashed.name.split(".")[0]
    assert savenow("objects", "forget", object_id, "--purge")[0] == 0
    assert not any("每周一上午来" in p.read_text(encoding="utf-8") for p in copies.iterdir())
    assert "每周一上午来" not in journal_path(install.workspace).read_text(encoding="utf-8")
    status, _, err = savenow("objects", "undo")
    assert status == 2 and "purge" in err


# -- the log of earlier versions ------------------------------------------------------------------


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def as_before(install: Install, rel: str, before: str | None, after: str | None, **record: object) -> None:
    """What the previous version left for one change: the file, the before bytes as a blob, a log line."""
    state = install.workspace / ".savenow" / "objects"
    state.mkdir(parents=True, exist_ok=True)
    path = install.workspace / rel
    if after is None:
        path.unlink()
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(after, encoding="utf-8")
    if before is not None:
        (state / "blobs").mkdir(parents=True, exist_ok=True)
        (state / "blobs" / f"{_sha(before)}.md").write_text(before, encoding="utf-8")
    line = {"type": "change", "id": f"old{len(record)}", "time": "2026-11-28T10:00:00+08:00",
            "files": [{"path": rel, "before": before and _sha(before), "after": after and _sha(after)}],
            "tombstones_added": [], "tombstones_removed": [], "trash": [], **record}  # fmt: skip
    with (state / "journal.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line, ensure_ascii=False) + "\n")


V1 = "---\nid: relationship-0a1b2c3d\ntype: relationship\nname: 张姐姐\nsummary: 家里的钟点工\n---\n\n## Facts\n- 每周一上午来\n"
V2 = V1 + "- 周五也来\n"


def test_an_object_written_by_the_previous_version_is_undone(install: Install, savenow: Runner) -> None:
    rel = "memory/objects/relationship/张姐姐.md"
    as_before(install, rel, None, V1, op="upsert")
    as_before(install, rel, V1, V2, op="upsert", id="old-update")
    store = ObjectStore(install.workspace)
    assert store.last_change_id() == "old-update"
    status, out, _ = savenow("objects", "undo", "--json")
    assert status == 0 and json.loads(out) == {"undid": "upsert", "files": [rel]}
    assert (install.workspace / rel).read_text(encoding="utf-8") == V1
    [undo] = [r for r in read_records(install.workspace) if r["type"] == "undo"]
    assert undo["undoes"] == "legacy:old-update" and undo["state"] == "committed"
    status, _, err = savenow("objects", "undo")  # once, like any change
    assert status == 2 and "Nothing to undo" in err
    assert store.last_change_id() is None


def test_a_forget_written_by_the_previous_version_is_undone(install: Install, savenow: Runner) -> None:
    rel = "memory/objects/relationship/张姐姐.md"
    state = install.workspace / ".savenow" / "objects"
    (install.workspace / rel).parent.mkdir(parents=True)
    (install.workspace / rel).write_text(V1, encoding="utf-8")
    (state / "trash").mkdir(parents=True)
    (state / "trash" / "relationship-0a1b2c3d.20261128T100000.md").write_text(V1, encoding="utf-8")
    stone = {"type": "relationship", "hashes": ["abc"], "forgotten_at": "2026-11-28T10:00:00+08:00"}
    (state / "tombstones.json").write_text(json.dumps({"tombstones": [stone]}), encoding="utf-8")
    as_before(install, rel, V1, None, op="forget", tombstones_added=[stone],
               trash=["trash/relationship-0a1b2c3d.20261128T100000.md"])  # fmt: skip
    assert savenow("objects", "undo")[0] == 0
    assert (install.workspace / rel).read_text(encoding="utf-8") == V1
    assert list((state / "trash").iterdir()) == []
    assert json.loads((state / "tombstones.json").read_text(encoding="utf-8")) == {"tombstones": []}


def test_a_new_change_is_what_undo_takes_back_after_an_old_log(install: Install, savenow: Runner) -> None:
    rel = "memory/objects/relationship/张姐姐.md"
    as_before(install, rel, None, V1, op="upsert")
    savenow("objects", "upsert", "--json-file", install.seed({**WANG, "facts": ["周五也来"]}))
    assert savenow("objects", "undo")[0] == 0
    assert (install.workspace / rel).read_text(encoding="utf-8") == V1
    assert savenow("objects", "undo")[0] == 2  # the old change is older than the undone one: one level
