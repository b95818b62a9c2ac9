"""The pipeline: statements → notes → placement → the 0..5 entries (DESIGN §7)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from ...models import MAX_ENTRIES, ChatMessage, Entry, ExtractionResult, MemorySection
from ...vocabulary import NoteKind
from . import signals
from .form import message_date, once_each, tidy_bullet
from .notes import Note, find_notes
from .placement import (
    OPENING_SUBJECT,
    OPENING_TOPIC,
    PEOPLE_SECTION,
    USER_RULE,
    USER_STANDING,
    Placement,
    about_opening,
    lists_people,
    local_topic,
    on_topic,
    opens_on,
    place,
    shared_fact_terms,
    still_stands,
    topic_home,
)
from .rules import (
    RESTATED_MIN_IDS,
    RESTATED_MIN_TERMS,
    RESTATED_STILL_TERMS,
    RESTATED_TERM_SHARE,
    SEED_MIN,
)
from .script_view import folded_input, restored_result
from .statements import Statement, keywords, statements
from .titles import TitleContext, heading_subject, note_language, note_title
from .words import WORD, fact_terms, quantities


class HeuristicExtractor:
    """Rule-based extractor: deterministic, offline, no model downloads."""

    name = "heuristic"

    def extract(self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]) -> ExtractionResult:
        read_messages, read_sections, restorer = folded_input(messages, sections)  # the rules read Simplified
        with signals.chat_memo():  # what the lexicons remember is this chat's, in this thread
            result = self._extract(read_messages, read_sections)
        return restored_result(result, restorer, sections)

    def _extract(self, messages: Sequence[ChatMessage], saved: Sequence[MemorySection]) -> ExtractionResult:
        # Placement judges a section by its subject and bullets, never by the kind label savenow
        # wrote into its heading ("…: root cause and fix" is no topic word); titles map back at the end.
        sections, real_titles = subject_views(saved)
        language = signals.conversation_language(m.text for m in messages if m.role == "user")
        scored = statements(messages)
        notes = find_notes(messages, scored)
        texts = [m.text or "" for m in messages]
        home = topic_home(texts, sections)
        user_texts = [m.text or "" for m in messages if m.role == "user"]
        opened = home is not None and opens_on(user_texts, home)
        context = ({OPENING_TOPIC} if opened else set()) | (
            {PEOPLE_SECTION} if lists_people(sections) else set()
        )
        placed = [
            (
                note,
                place(
                    note.bullets(),
                    note.ids,
                    _placement_kinds(note, texts, home)
                    | context
                    | (
                        {OPENING_SUBJECT}
                        if opened and about_opening(" ".join(m.bullet for m in note.members), user_texts)
                        else set()
                    ),
                    note.seed.prior,
                    sections,
                    home,
                    local_topic(texts, (m.message for m in note.members), sections),
                ),
            )
            for note in notes
        ]
        placed_notes = [(n, p) for n, p in placed if p is not None]
        kept = [(n, p) for n, p in placed_notes if p.action != "skip"][:MAX_ENTRIES]
        skips = _unique_skips([(n, p) for n, p in placed_notes if p.action == "skip"])
        in_notes = {id(m) for n, _ in kept for m in n.members}
        skips += restated_skips(
            [s for s in scored if id(s) not in in_notes], sections, {p.matched_bullet for _, p in skips}
        )
        kept += skips[: MAX_ENTRIES - len(kept)]
        titles = TitleContext([m.text or "" for m in messages if m.role == "user"], texts)
        days = [message_date(m.timestamp) for m in messages]
        entries = [
            _entry(note, _real_title(placement, real_titles), language, index, titles, days)
            for index, (note, placement) in enumerate(kept)
        ]
        return ExtractionResult(entries=entries)


def subject_views(sections: Sequence[MemorySection]) -> tuple[list[MemorySection], dict[str, str]]:
    """The sections with their headings' kind labels removed, and each view's title → the real one
    (a subject two headings share keeps the label on the later heading, so titles map back one to one)."""
    views: list[MemorySection] = []
    real: dict[str, str] = {}
    for section in sections:
        subject = heading_subject(section.title)
        if subject in real and real[subject] != section.title:
            subject = section.title
        real.setdefault(subject, section.title)
        views.append(section if subject == section.title else replace(section, title=subject))
    return views, real


def _real_title(placement: Placement, real_titles: dict[str, str]) -> Placement:
    view = placement.section_title
    if view is None or real_titles.get(view, view) == view:
        return placement
    title = real_titles[view]
    return replace(placement, section_title=title, reason=placement.reason.replace(f'"{view}"', f'"{title}"'))


def _placement_kinds(note: Note, texts: Sequence[str], home: MemorySection | None) -> set[str]:
    """The note's kinds, plus whether it holds a standing rule the user set about the chat's topic."""
    standing = any(
        m.role == "user"
        and NoteKind.FUTURE in m.kinds
        and m.score >= SEED_MIN
        and not m.kinds & {NoteKind.OWNER, NoteKind.PREFERENCE}
        for m in note.members
    )
    user_rule = standing and home is not None
    if user_rule and home is not None:
        text = " ".join(m.bullet for m in note.members)
        user_rule = on_topic(text, {m.message for m in note.members}, texts, home)
    return note.kinds | ({USER_RULE} if user_rule else set()) | ({USER_STANDING} if standing else set())


def restated_skips(
    candidates: Sequence[Statement], sections: Sequence[MemorySection], taken: set[str | None]
) -> list[tuple[Note, Placement]]:
    """Facts the chat goes over again that today's file already holds: reported as skips.

    A sentence restates a saved bullet when it carries two of the bullet's
    identifiers (hosts, paths, values), or one of them plus a reference to
    earlier notes ("as saved", "still the rule", 按之前定的). The best sentence
    per bullet is kept; bullets an earlier skip already covers are left out.
    """
    best: dict[tuple[str, str], tuple[float, Statement]] = {}
    for section in sections:
        for bullet in section.bullets:
            if bullet in taken:
                continue
            saved_text = bullet.casefold()
            for statement in candidates:
                if statement.machine or signals.is_question(statement.text) or len(statement.bullet) < 8:
                    continue
                # A new identifier is new information: only a sentence wholly inside the bullet restates it.
                shared = sum(1 for i in statement.ids if i in saved_text)
                new = len(statement.ids) - shared
                restates = new == 0 and (
                    shared >= RESTATED_MIN_IDS
                    or _restates_words(statement.bullet, bullet)
                    or (shared and _one_id_restates(statement.text, bullet))
                    or _still_as_saved(statement.text, bullet)
                )
                recalled = statement.prior and bool(
                    shared
                    or keywords(statement) & {w.casefold() for w in WORD.findall(bullet)}
                    or signals.alike(statement.bullet, bullet) >= 0.3
                )
                if not (restates or recalled):
                    continue
                strength = shared + (1.0 if statement.prior else 0.0) + 0.1 * statement.score
                key = (section.title, bullet)
                if key not in best or strength > best[key][0]:
                    best[key] = (strength, statement)
    ranked = sorted(best.items(), key=lambda item: -item[1][0])
    result = []
    seen: set[int] = set()
    for (title, bullet), (_, statement) in ranked:
        if id(statement) in seen:
            continue
        seen.add(id(statement))
        placement = Placement("skip", title, bullet, f'Already in today\'s memory under "{title}".')
        # The report shows the saved wording: the chat only went over it again ("still the rule").
        saved = Statement(statement.message, statement.role, bullet, bullet, statement.ids, statement.score)
        result.append((Note(seed=saved, members=[saved]), placement))
    return result


def _one_id_restates(sentence: str, bullet: str) -> bool:
    """A sentence with one of the bullet's identifiers (and none of its own) restates the bullet when it
    shares another word with it or says it holds as before ("k9s is already in your setup"), and states
    no number it lacks: "Bucket is still hq-restic on b2", not "pi-attic fan is loud tonight" against
    "Vaultwarden runs on `pi-attic` …"."""
    return _values_within(sentence, bullet) and (
        shared_fact_terms(sentence, bullet) >= RESTATED_STILL_TERMS or still_stands(sentence)
    )


def _still_as_saved(sentence: str, bullet: str) -> bool:
    """ "Marta still opens tue to thu" against a saved "Marta opens Tue-Thu, Ollie weekends": the
    sentence says its fact holds as before, shares words with the bullet and states no number it lacks."""
    return (
        still_stands(sentence)
        and shared_fact_terms(sentence, bullet) >= RESTATED_STILL_TERMS
        and _values_within(sentence, bullet)
    )


def _values_within(sentence: str, bullet: str) -> bool:
    """Every number the sentence states is one the bullet states: "Bucket is still hq-restic on b2"
    against "restic to B2 bucket `hq-restic` …" adds nothing, "NUT on pve-01, shutdown at 20%" against
    "Proxmox VE 8.2 on pve-01 (10.0.20.5)" adds a value (a 20 inside an address is no 20%)."""
    return quantities(sentence) <= quantities(bullet)


def _restates_words(sentence: str, bullet: str) -> bool:
    """ "port 80 stays closed on the router" against a saved "Port 80 stays closed on the router; …":
    most of the sentence's words are the bullet's, with no identifier to carry it."""
    said, saved = fact_terms(sentence), fact_terms(bullet)
    shared = len(said & saved)
    return shared >= RESTATED_MIN_TERMS and shared >= RESTATED_TERM_SHARE * min(len(said), len(saved))


def _unique_skips(placed: list[tuple[Note, Placement]]) -> list[tuple[Note, Placement]]:
    """One skip per existing bullet: notes that restate the same saved bullet are pooled."""
    by_bullet: dict[tuple[str | None, str | None], tuple[Note, Placement]] = {}
    for note, placement in placed:
        key = (placement.section_title, placement.matched_bullet)
        if key in by_bullet:
            by_bullet[key][0].members.extend(note.members)
        else:
            by_bullet[key] = (note, placement)
    return list(by_bullet.values())


def _entry(
    note: Note,
    placement: Placement,
    language: str,
    index: int,
    titles: TitleContext,
    days: Sequence[date | None] = (),
) -> Entry:
    chosen = note.bullets()
    bullets = [s.bullet for s in chosen]
    if placement.action != "skip":  # a skip shows the saved wording or the chat's, as it was
        bullets = _tidy(
            bullets, [_day(days, s.message) for s in chosen], [s.role for s in chosen], titles.raw
        )
        if len(bullets) == len(chosen):
            bullets = once_each(bullets, [s.kinds for s in chosen])
    title = placement.section_title if placement.action == "skip" and placement.section_title else None
    if title is None:
        kinds: set[str] = set().union(*(s.kinds for s in chosen))  # kinds, and "setup" for titles
        if not kinds & {
            NoteKind.NOTE,
            NoteKind.FUTURE,
            NoteKind.ROOT_CAUSE,
            NoteKind.FIX,
            NoteKind.OWNER,
            NoteKind.PREFERENCE,
            NoteKind.CHANGE,
        } and any(_SETUP_ID.search(i) for i in note.seed.ids):
            kinds.add("setup")  # a path, a port, a host: where things are and how they are set up
        ids = frozenset().union(*(s.ids for s in chosen))
        title = note_title(bullets, kinds, ids, note_language(bullets, language), titles)
    return Entry(
        title=title,
        bullets=bullets,
        action=placement.action,
        merge_target_title=placement.section_title if placement.action == "merge" else None,
        reason=placement.reason,
        candidate_index=index,
    )


def _day(days: Sequence[date | None], message: int) -> date | None:
    return days[message] if 0 <= message < len(days) else None


def _tidy(
    bullets: list[str], days: list[date | None], roles: Sequence[str] = (), chat: str = ""
) -> list[str]:
    """The bullets as a note states them (:mod:`.form`), each once."""
    result: list[str] = []
    for index, (bullet, day) in enumerate(zip(bullets, days, strict=True)):
        tidy = tidy_bullet(bullet, day, roles[index] if index < len(roles) else "user", chat)
        if tidy and tidy not in result:
            result.append(tidy)
    return result


_SETUP_ID = re.compile(r"/|\d{2,}|\.[a-z]{2,5}$")
