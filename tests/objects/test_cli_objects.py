"""`savenow objects …` end to end through the real CLI (DESIGN §14, §15)."""

from __future__ import annotations

import json

import pytest

from tests.objects.conftest import Install, Runner, scope_flags

WANG = {"type": "relationship", "name": "张姐姐", "relation": "housekeeper", "summary": "家里的钟点工",
        "facts": ["每周一上午来"]}  # fmt: skip


def _json(out: str) -> dict:
    return json.loads(out)


def test_upsert_twice_gives_one_file_with_lists_unioned_in_order(install: Install, savenow: Runner) -> None:
    first = install.seed({**WANG, "facts": ["每周一上午来", "会做川菜"]}, "a.json")
    second = install.seed(
        {**WANG, "facts": ["会做川菜", "不吃辣"], "summary": "家里请的钟点工阿姨"}, "b.json"
    )
    status, out, _ = savenow("objects", "upsert", "--json-file", first, "--json")
    assert status == 0 and _json(out)["results"][0]["op"] == "create"
    status, out, _ = savenow("objects", "upsert", "--json-file", second, "--json")
    assert _json(out)["results"][0]["op"] == "update"
    files = install.object_files()
    assert len(files) == 1
    text = files[0].read_text(encoding="utf-8")
    assert text.index("- 每周一上午来") < text.index("- 会做川菜") < text.index("- 不吃辣")
    assert text.count("会做川菜") == 1
    assert "summary: 家里请的钟点工阿姨" in text  # scalars overwritten


def test_extract_writes_no_object_and_apply_writes_them(install: Install, savenow: Runner) -> None:
    status, out, _ = savenow("objects", "extract", "--json", *scope_flags(24))
    assert status == 0
    proposals = _json(out)["objects"]
    assert [(p["type"], p["op"], p["name"]) for p in proposals] == [("topic", "create", "tide-notes")]
    assert "SQLite" in proposals[0]["summary"]
    assert install.object_files() == []
    status, out, _ = savenow("objects", "apply", "--json", *scope_flags(24))
    assert status == 0 and _json(out)["results"][0]["op"] == "create"
    assert len(install.object_files()) == 1
    status, out, _ = savenow("objects", "apply", "--json", *scope_flags(24))
    assert _json(out)["already_applied"] is True  # a double tap writes once
    assert len(install.object_files()) == 1


def test_apply_from_another_topic_is_refused(install: Install, savenow: Runner) -> None:
    savenow("objects", "extract", *scope_flags(24))
    status, _, err = savenow("objects", "apply", *scope_flags(23))
    assert status == 2 and err.count("\n") == 1
    assert install.object_files() == []


def test_variant_name_is_proposed_as_an_update_never_merged(install: Install, savenow: Runner) -> None:
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    before = install.files()
    _, out, _ = savenow("objects", "extract", "--json", *scope_flags(21))
    [proposal] = _json(out)["objects"]
    assert proposal["op"] == "update" and proposal["name"] == "张姐姐" and proposal["variant"] == "张姐"
    _, out, _ = savenow("objects", "extract", *scope_flags(21))
    assert "update 张姐姐? (you said “张姐”)" in out
    assert [p for p in before if "objects/relationship" in p] == [
        p for p in install.files() if "objects/relationship" in p
    ]
    # A direct upsert under the variant is not merged silently either.
    variant = install.seed({**WANG, "name": "张姐", "facts": ["周三来"]}, "variant.json")
    _status, out, _ = savenow("objects", "upsert", "--json-file", variant, "--json")
    assert (
        _json(out)["results"][0]["op"] == "near_match" and _json(out)["results"][0]["candidate"] == "张姐姐"
    )
    assert len(install.object_files()) == 1
    # Applying the approved preview updates the stored person and learns the alias.
    savenow("objects", "extract", *scope_flags(21))
    savenow("objects", "apply", *scope_flags(21))
    [path] = install.object_files()
    text = path.read_text(encoding="utf-8")
    assert "以后改成每周三、周六上午来打扫" in text and "- 张姐" in text.split("---")[1]


def test_correct_then_re_extracting_the_old_chat_does_not_revert(install: Install, savenow: Runner) -> None:
    savenow("objects", "extract", *scope_flags(22))
    savenow("objects", "apply", *scope_flags(22))
    [path] = install.object_files()
    assert "三句话以内" in path.read_text(encoding="utf-8")
    fixed = {"type": "self", "category": "communication_style", "key": "reply_length",
             "summary": "先一句话给结论，再列要点，正文不超过 200 字"}  # fmt: skip
    status, out, _ = savenow("objects", "correct", "--json-file", install.seed(fixed), "--json")
    assert status == 0 and _json(out)["results"][0]["op"] == "correct"
    corrected = path.read_bytes()
    status, out, _ = savenow("objects", "extract", "--json", *scope_flags(22))
    assert [p["op"] for p in _json(out)["objects"]] == ["skip"]
    # Even a direct upsert of the superseded value (an older chat re-read) changes nothing (the complaint
    # before the rule, "你最近回复太长了", is no part of it).
    old = {**fixed, "summary": "以后回复三句话以内就行"}
    savenow("objects", "upsert", "--json-file", install.seed(old, "old.json"))
    assert path.read_bytes() == corrected


def test_forget_then_re_extract_does_not_recreate(install: Install, savenow: Runner) -> None:
    savenow("objects", "extract", *scope_flags(23))
    savenow("objects", "apply", *scope_flags(23))
    [_path] = install.object_files()
    status, out, _ = savenow("objects", "forget", "家里 wifi 密码", "--json")
    assert status == 0 and _json(out)["op"] == "forget"
    assert install.object_files() == []
    tombstones = (install.workspace / ".savenow" / "objects" / "tombstones.json").read_text(encoding="utf-8")
    assert "wifi" not in tombstones and "sunflower" not in tombstones  # hashes only
    status, out, _ = savenow("objects", "extract", "--json", *scope_flags(23))
    assert [p for p in _json(out)["objects"] if p["op"] != "skip"] == []
    assert any("forgotten" in d for d in _json(out)["dropped"])
    again = {
        "type": "saved",
        "saved_kind": "text_note",
        "title": "家里 wifi 密码",
        "summary": "sunflower-2048",
    }
    status, out, _ = savenow("objects", "upsert", "--json-file", install.seed(again), "--json")
    assert _json(out)["results"][0]["op"] == "forgotten" and install.object_files() == []
    status, out, _ = savenow("objects", "upsert", "--json-file", install.seed(again), "--remember", "--json")
    assert _json(out)["results"][0]["op"] == "create" and len(install.object_files()) == 1


def test_undo_restores_the_last_change_byte_for_byte(install: Install, savenow: Runner) -> None:
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    [path] = install.object_files()
    path.write_bytes(path.read_bytes().replace(b"\n## Facts", b"\nMy own note, kept.\r\n\n## Facts"))
    edited = path.read_bytes()
    savenow("objects", "upsert", "--json-file", install.seed({**WANG, "facts": ["周五也来"]}, "b.json"))
    assert path.read_bytes() != edited
    status, _out, _ = savenow("objects", "undo", "--json")
    assert status == 0 and path.read_bytes() == edited
    status, _, err = savenow("objects", "undo")
    assert status == 2 and "Nothing to undo" in err
    # forget, then undo: the file is back byte for byte and the tombstone is gone.
    savenow("objects", "forget", "张姐姐")
    assert not path.exists()
    savenow("objects", "undo")
    assert path.read_bytes() == edited
    assert "hashes" not in (install.workspace / ".savenow" / "objects" / "tombstones.json").read_text()


def test_purge_deletes_the_trash_copy_and_keeps_the_tombstone(install: Install, savenow: Runner) -> None:
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    savenow("objects", "upsert", "--json-file", install.seed({**WANG, "facts": ["周五也来"]}, "b.json"))
    status, out, _ = savenow("objects", "forget", "张姐姐", "--purge", "--json")
    assert status == 0 and _json(out)["op"] == "purge"
    state = install.workspace / ".savenow" / "objects"
    leftovers = [p for p in state.rglob("*.md")]
    assert leftovers == []  # no trash copy, no history blob: no plaintext anywhere
    assert "hashes" in (state / "tombstones.json").read_text()
    status, _, _err = savenow("objects", "undo")
    assert status == 2
    status, out, _ = savenow("objects", "upsert", "--json-file", install.seed(WANG), "--json")
    assert _json(out)["results"][0]["op"] == "forgotten"


def test_a_hand_edit_is_kept_and_a_renamed_file_is_still_found(install: Install, savenow: Runner) -> None:
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    [path] = install.object_files()
    text = path.read_text(encoding="utf-8")
    mine = "\n## 我的备注\n她喜欢听评书。\n\n```\n## not a heading\n```\n"
    renamed = path.with_name("my-housekeeper.md")
    path.unlink()
    renamed.write_text(text.replace("- 每周一上午来", "- 每周一上午来（八点）") + mine, encoding="utf-8")
    savenow("objects", "upsert", "--json-file", install.seed({**WANG, "facts": ["周五也来"]}, "b.json"))
    assert install.object_files() == [renamed]
    after = renamed.read_text(encoding="utf-8")
    assert after.endswith(mine)
    assert "- 每周一上午来（八点）\n- 周五也来\n" in after
    _status, out, _ = savenow("objects", "show", "张姐姐", "--json")
    assert _json(out)["path"].endswith("my-housekeeper.md")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "person", "name": "x", "summary": "s"}, "unknown type"),
        ({"type": "relationship", "name": "Ann", "relation": "friend"}, "`summary` is required"),
        (
            {"type": "self", "category": "preference", "key": "favourite_colour", "summary": "blue"},
            "not in the vocabulary",
        ),
        (
            {"type": "topic", "name": "../../etc/passwd", "status": "active", "summary": "s"},
            "looks like a path",
        ),
        ({"type": "topic", "name": "x", "status": "sleeping", "summary": "s"}, "status"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_no_file_changed(
    install: Install, savenow: Runner, data: dict, message: str
) -> None:
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    before = install.files()
    for command in ("upsert", "correct"):
        # a good object first: the whole file is refused, nothing is written
        status, out, err = savenow(
            "objects", command, "--json-file", install.seed([{**WANG, "facts": ["新"]}, data])
        )
        assert status == 2 and out == ""
        assert err.count("\n") == 1 and message in err
    assert install.files() == before


def test_bad_json_and_missing_file_are_refused(install: Install, savenow: Runner) -> None:
    bad = install.root / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert savenow("objects", "upsert", "--json-file", str(bad))[0] == 2
    assert savenow("objects", "upsert", "--json-file", str(install.root / "missing.json"))[0] == 2
    assert savenow("objects", "forget", "nobody")[0] == 2
    assert install.object_files() == []


def test_list_and_show(install: Install, savenow: Runner) -> None:
    savenow(
        "objects",
        "upsert",
        "--json-file",
        install.seed([WANG, {"type": "self", "key": "city", "summary": "住在成都"}]),
    )
    _, out, _ = savenow("objects", "list", "--json")
    items = _json(out)["objects"]
    assert {(i["type"], i.get("name") or i.get("key")) for i in items} == {
        ("relationship", "张姐姐"),
        ("self", "city"),
    }
    assert all(i["path"].startswith("memory/objects/") for i in items)
    _status, out, _ = savenow("objects", "show", items[0]["id"])
    assert out.startswith("---\n")


def test_the_same_change_again_after_an_undo_can_be_undone_too(install: Install, savenow: Runner) -> None:
    savenow("objects", "upsert", "--json-file", install.seed(WANG))
    [path] = install.object_files()
    first = path.read_bytes()
    more = install.seed({**WANG, "facts": ["周五也来"]}, "b.json")
    savenow("objects", "upsert", "--json-file", more)
    assert savenow("objects", "undo")[0] == 0
    savenow("objects", "upsert", "--json-file", more)  # the very same change, at the same (fixed) time
    assert savenow("objects", "undo")[0] == 0
    assert path.read_bytes() == first


def test_maintain_through_the_cli_with_an_injected_clock(
    install: Install, savenow: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    topic = {"type": "topic", "name": "tide-notes", "status": "active", "summary": "notes app"}
    savenow("objects", "upsert", "--json-file", install.seed(topic))
    monkeypatch.setenv("SAVENOW_NOW", "2026-12-14T21:00:00+08:00")  # +15 days
    status, out, _ = savenow("objects", "maintain", "--json")
    assert status == 0 and len(_json(out)["paused"]) == 1
    assert _json(savenow("objects", "maintain", "--json")[1])["changed"] == 0
    monkeypatch.setenv("SAVENOW_NOW", "2027-01-29T21:00:00+08:00")  # +61 days
    assert len(_json(savenow("objects", "maintain", "--json")[1])["archived"]) == 1
    [item] = _json(savenow("objects", "list", "--json")[1])["objects"]
    assert item["status"] == "archived"
    status, out, _ = savenow("objects", "undo")
    assert status == 0
    [item] = _json(savenow("objects", "list", "--json")[1])["objects"]
    assert item["status"] == "paused"
