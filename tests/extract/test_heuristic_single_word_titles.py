"""Titles and bullets a reader keeps, issue 12 items 3-4 (branch t12t3): one test per failure kind
a blind reader named — a single common word or reply word as the title, a bare number for a name,
chat fillers and requests to the assistant left in a bullet — in both languages."""

from __future__ import annotations

from datetime import date

import pytest

from savenow.extract.heuristic.form import tidy_bullet
from savenow.extract.heuristic.titles import TitleContext, note_title
from savenow.vocabulary import NoteKind

DAY = date(2026, 5, 15)


def title(bullets: list[str], kinds: set[str], language: str, chat: list[str] | None = None) -> str:
    texts = chat or bullets
    return note_title(bullets, kinds, (), language, TitleContext(texts, texts))


# ----------------------------------------------------------------------------- titles


def test_names_tells_a_proper_name_from_a_common_word() -> None:
    context = TitleContext(
        [], ["Rent is split by room. We moved Immich to the NAS, the rent stays.", "use `tank`"]
    )
    assert not context.names("Rent")  # capitalized only where a sentence starts
    assert context.names("Immich")  # capitalized inside a sentence
    assert context.names("NAS")  # capitals
    assert context.names("tank")  # in a code span


@pytest.mark.parametrize(
    ("chat", "bullet", "heading"),
    [
        (["Aisle, always."], "I always want an aisle seat.", "Aisle seat"),
        (
            ["Deps take ages to install in CI.", "Caching the deps would help."],
            "Any workflow that installs Python deps uses setup-uv with enable-cache.",
            "Python deps",
        ),
    ],
)
def test_a_common_word_alone_becomes_its_noun_phrase(chat: list[str], bullet: str, heading: str) -> None:
    assert title([bullet], {NoteKind.PREFERENCE}, "en", [*chat, bullet]) == heading


def test_a_common_word_takes_the_identifier_it_is_part_of() -> None:
    bullets = ["改完 .env 之后 `systemctl restart tidewatch-worker`。", "worker 用 systemd 跑。"]
    assert title(bullets, {NoteKind.NOTE}, "zh") == "tidewatch-worker"
    en = ["Signing: the certs are in a separate keychain, ci-signing.keychain-db."]
    assert title(en, {NoteKind.NOTE}, "en", ["Signing: the certs are in a separate keychain."]) != "Signing"


def test_a_path_or_another_case_is_no_identifier_of_the_word() -> None:
    bullets = ["rclone 的配置在 `/etc/rclone/rclone.conf`，`RCLONE_CONFIG` 指向它。"]
    assert title(bullets, {NoteKind.NOTE}, "zh") not in ("/etc/rclone/rclone.conf", "RCLONE_CONFIG")


def test_a_name_or_identifier_stands_alone() -> None:
    chat = ["We run Caddy in docker.", "Caddy is at /srv/caddy/Caddyfile, container caddy-edge."]
    assert title(["Caddy is at /srv/caddy/Caddyfile."], {NoteKind.NOTE}, "en", chat) == "Caddy"


@pytest.mark.parametrize(
    ("chat", "bullet", "heading"),
    [
        (["`kiln-stg-01` is API, `kiln-stg-02` admin."], "Priyanka owns 01.", "Owner of kiln-stg-01"),
        (["`pg-03` 是主库，`pg-04` 是备库。"], "小周负责 04。", "pg-04 负责人"),
    ],
)
def test_an_owned_number_is_the_name_it_stands_for(chat: list[str], bullet: str, heading: str) -> None:
    language = "zh" if "负责" in bullet else "en"
    assert title([bullet], {NoteKind.OWNER}, language, [*chat, bullet]) == heading


def test_an_owned_number_with_two_readings_stays() -> None:
    chat = ["`web-01` and `db-01` are both new.", "Priyanka owns 01."]
    assert title(["Priyanka owns 01."], {NoteKind.OWNER}, "en", chat) == "Owner of 01"


# ----------------------------------------------------------------------------- bullets


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("定了 cart:session:* 统一 TTL 48 小时。", "cart:session:* 统一 TTL 48 小时。"),
        ("最终，周三奶奶接，15:40，西门。", "周三奶奶接，15:40，西门。"),
        ("就用 `restic` 备份到 B2，每天 03:00。", "用 `restic` 备份到 B2，每天 03:00。"),
        ("No, the port is 8443.", "The port is 8443."),
        ("So the backup runs at 03:00 on nas-01.", "The backup runs at 03:00 on nas-01."),
        ("Okay, invoices go out on the 1st.", "Invoices go out on the 1st."),
    ],
)
def test_a_chat_filler_at_a_clause_start_goes(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    "said", ["最终版本在 `docs/v3` 里。", "就近原则：先找 nas-01。", "No VPN on the Pi."]
)
def test_words_that_only_look_like_fillers_stay(said: str) -> None:
    assert tidy_bullet(said, DAY) == said


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("钢琴课改到周六上午，你也记一下。", "钢琴课改到周六上午。"),
        ("The gate code is 4471. Can you note that?", "The gate code is 4471."),
        ("Please remember this: the gate code is 4471.", "The gate code is 4471."),
    ],
)
def test_a_request_to_the_assistant_leaves_the_bullet(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("游泳课改到 17:30，这样就不用提前走了。", "游泳课改到 17:30。"),
        ("Swim class moves to 17:30, so I don't have to leave work early.", "Swim class moves to 17:30."),
    ],
)
def test_what_the_fact_spares_the_speaker_goes(said: str, kept: str) -> None:
    assert tidy_bullet(said, DAY) == kept


@pytest.mark.parametrize(
    ("heading", "language"),
    [("是预算问题", "zh"), ("Hofer &", "en"), ("Ward and", "en"), ("张三和", "zh")],
)
def test_a_clause_or_a_cut_name_is_a_title_fault(heading: str, language: str) -> None:
    from savenow.extract.heuristic.titles import title_faults

    assert title_faults(heading, ["x"], language)


def test_a_noun_beginning_with_shi_fou_is_no_clause() -> None:
    from savenow.extract.heuristic.titles import title_faults

    assert "clause" not in title_faults("是否含早", ["是否含早：含。"], "zh")
