"""``memory_search`` and ``memory_get`` (DESIGN §12): the Python API the CLI and Telegram use.

    search = MemorySearch(workspace, options)          # or MemorySearch.from_settings(settings)
    response = search.search("证书什么时候到期")          # SearchResponse; .to_json() is the CLI's shape
    text = search.get("memory/2026-09-10.md", from_line=3, lines=5).text

Ranking, lexical: for each query term, BM25's idf × saturated term frequency; the chunk's score is
the share of the query's total idf it matches (0..1), so ``min_score`` means "this much of what the
query asks for is here". Terms the index has never seen count against every chunk (that is what
makes a question about something absent come back empty), except a Han bigram that only straddles
two words of the query. Recency multiplies the score by a decay of the file's date *after* the
``min_score`` cut, so it reorders results and never drops one; then a newer note about the same
thing moves above the older one (:func:`_newer_first`). With an embedder, the score is
``w_v·v + w_t·text`` over the union of both candidate pools, ``v`` the cosine calibrated to the
query's median chunk (:func:`_calibrated`). docs/search.md has the reasoning and the figures.
"""

from __future__ import annotations

import functools
import json
import math
import operator
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Self

from ..messages import Localized, Text
from ..text.changes import states_a_change
from ..text.script import fold_traditional
from ..text.segment import HAN_RUN
from .embedder import Embedder, EmbeddingError, OpenAIEmbedder, normalized
from .index import IndexSync, blob_vector
from .options import SearchOptions, options_from_settings
from .reading import GetResult, read_memory_file
from .store import IndexStore, index_path
from .tokenize import (
    HEADING_PREFIX,
    SINGLE_HAN_WEIGHT,
    QueryTerm,
    document_terms,
    is_identifier,
    query_terms,
    subject_terms,
)

if TYPE_CHECKING:
    import array

    from ..clock import Clock
    from ..config import Settings

__all__ = ["GetResult", "MemorySearch", "SearchHit", "SearchResponse", "build_embedder"]

SNIPPET_CHARS = 700
_DOTTED = re.compile(r"(?<![\d.])\d+(?:\.\d+)+")
_CLAUSE_BREAK = re.compile(r"[，,；;。]\s*|\.\s+")
_K1 = 1.2  # BM25 term-frequency saturation
_B = 0.75  # BM25 length normalization
CHAR_BACKOFF = 0.5  # the most a bigram matched only by its characters earns
SUPERSEDE_COVERAGE = 0.8  # see _newer_first
SUPERSEDE_SCORE = 0.7
SUBJECT_SHARED = 2
VERSION_SHARED = 0.25  # ... or a quarter, when it gives the same thing a new version or address
HEADING_CHANGE_WORDS = 2  # a heading saying a change speaks for the note when it names this many query words
CHANGE_SHARED = 0.5  # a clause saying "X changed" supersedes a note half of whose query weight is X


@dataclass(frozen=True)
class SearchHit:
    """One result of memory_search."""

    path: str
    start_line: int
    end_line: int
    score: float  # relevance, the figure min_score is compared with (before recency)
    snippet: str
    source: str
    day: str | None = None  # the file's date (None: MEMORY.md / undated)
    rank_score: float = 0.0  # score after recency: what the order follows

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "startLine": self.start_line,
            "endLine": self.end_line,
            "score": round(self.score, 4),
            "snippet": self.snippet,
            "source": self.source,
            "date": self.day,
        }


@dataclass
class SearchResponse:
    """memory_search's answer: the results and how they were ranked."""

    results: list[SearchHit]
    provider: str | None = None
    model: str | None = None
    fallback: dict[str, str] | None = None  # set when the answer is lexical only, and why
    # The fallback's message for a reader, in either language (the JSON's "message" stays English).
    fallback_notice: Localized | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "results": [hit.to_json() for hit in self.results],
            "provider": self.provider,
            "model": self.model,
            "fallback": self.fallback,
        }


class _Candidate:
    """A chunk being ranked: its scores and which query words (groups) it matched, for how much."""

    __slots__ = ("chunk_id", "matched", "said", "shown", "text_score", "vector_score")

    def __init__(self, chunk_id: int, text_score: float = 0.0) -> None:
        self.chunk_id = chunk_id
        self.text_score = text_score
        self.vector_score = 0.0
        self.matched: dict[str, float] = {}
        self.shown: set[str] = set()  # the index terms it matched (snippets)
        # Per group, the index terms that said it here: the words themselves, or a translation
        # (a Chinese question's 版本 said as "versions" in an English note).
        self.said: dict[str, set[str]] = {}


def build_embedder(options: SearchOptions) -> Embedder | None:
    if options.provider != "openai" or not options.base_url or not options.model:
        return None
    return OpenAIEmbedder(
        base_url=options.base_url,
        model=options.model,
        api_key=options.api_key,
        headers=options.headers,
        batch_size=options.batch_size,
        max_retries=options.max_retries,
        timeout_s=options.timeout_s,
        send_input_type=options.send_input_type,
    )


class MemorySearch:
    """One workspace's memory index. Cheap to create; opens the index on first use."""

    def __init__(
        self,
        workspace: Path | str,
        options: SearchOptions | None = None,
        *,
        embedder: Embedder | None = None,
        clock: Clock | None = None,
        today: date | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.workspace = Path(workspace)
        self.options = options or SearchOptions()
        self.embedder = embedder if embedder is not None else build_embedder(self.options)
        self._owns_embedder = embedder is None  # an embedder handed in is the caller's to close
        self._clock = clock
        self._today = today
        self._monotonic = monotonic
        self._store: IndexStore | None = None
        self._sync: IndexSync | None = None
        self._last_scan: tuple[float, Any] | None = None  # (when, SyncReport) of the last full scan
        self._aliases: tuple[Any, list[tuple[frozenset[str], ...]]] | None = None
        self._vectors: tuple[Any, list[tuple[int, array.array[float]]]] | None = None
        # One SQLite connection per instance: calls from several threads (the bot's to_thread)
        # take turns instead of sharing it at once.
        self._lock = threading.RLock()

    @classmethod
    def from_settings(cls, settings: Settings, **kwargs: Any) -> MemorySearch:
        return cls(settings.workspace, options_from_settings(settings), **kwargs)

    # -- lifecycle ----------------------------------------------------------------------------
    def _open(self) -> IndexSync:
        if self._sync is None:
            self._store = IndexStore.open(index_path(self.workspace))
            self._sync = IndexSync(self._store, self.workspace, self.options)
        return self._sync

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()  # the change feed's descriptor
        if self._store is not None:
            self._store.close()
        self._store = self._sync = None
        self._last_scan = None
        self._aliases = self._vectors = None
        close = getattr(self.embedder, "close", None)
        if self._owns_embedder and callable(close):
            close()  # the client's connection pool

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def today(self) -> date:
        if self._today is not None:
            return self._today
        if self._clock is not None:
            return self._clock.today()
        from ..clock import Clock, load_timezone

        return Clock.from_env(load_timezone(self.options.timezone)).today()

    def sync(self, only: list[str] | None = None) -> Any:
        """Bring the index up to date (every search does this first); returns a SyncReport."""
        import sqlite3

        with self._lock:
            sync = self._open()
            try:
                return sync.sync(self.embedder, only=only)
            except sqlite3.DatabaseError:
                self._rebuild()  # the file went bad under us: it is derived, start over once
                return self._open().sync(self.embedder, only=only)

    def _fresh(self) -> Any:
        """The per-search freshness scan; a long-lived caller may space full scans out by
        ``rescan_interval_s`` (savenow's own writes are indexed at once either way)."""
        interval = self.options.rescan_interval_s
        if interval > 0 and self._last_scan is not None and self._monotonic() - self._last_scan[0] < interval:
            return self._last_scan[1]
        report = self.sync()
        self._last_scan = (self._monotonic(), report)
        return report

    def _rebuild(self) -> None:
        self.close()
        path = index_path(self.workspace)
        IndexStore._remove(path)

    # -- memory_search --------------------------------------------------------------------------
    def search(
        self, query: str, *, max_results: int | None = None, min_score: float | None = None
    ) -> SearchResponse:
        """memory_search: the best chunks for ``query`` (never raises for a provider problem)."""
        import sqlite3

        with self._lock:
            try:
                return self._search(query, max_results, min_score)
            except sqlite3.DatabaseError:
                self._rebuild()  # damaged under us: derived data, so rebuild once and answer
                return self._search(query, max_results, min_score)

    def _search(self, query: str, max_results: int | None, min_score: float | None) -> SearchResponse:
        said, query = query, fold_traditional(query)  # the lexical side compares Simplified (text/script.py)
        max_results = self.options.max_results if max_results is None else max(1, max_results)
        min_score = self.options.min_score if min_score is None else min_score
        report = self._fresh()
        from .answers import asked_kinds

        kinds = asked_kinds(query)
        response = SearchResponse(results=[])
        terms = _without_frame_words(query, kinds, query_terms(query, self.options.segmenter))
        if not terms or not self.options.enabled:
            response.fallback = self._fallback(report)
            response.fallback_notice = self._fallback_notice(report) if response.fallback else None
            self._describe(response)
            return response
        store = self._open().store
        pool = max_results * self.options.candidate_multiplier
        df_memo: dict[str, int] = {}  # per search: the index may change between searches
        alternatives = self._alternatives(store, df_memo, query, terms)
        candidates = self._lexical(store, df_memo, terms, pool, alternatives=alternatives)
        fallback = self._fallback(report)
        failure: EmbeddingError | None = None
        if self.embedder is not None and fallback is None:
            try:
                query_vector = normalized(self.embedder.embed([said], "query")[0])
            except EmbeddingError as exc:
                fallback = {"mode": "lexical", "reason": "provider_error", "message": str(exc)}
                failure = exc
            else:
                candidates = self._hybrid(store, df_memo, terms, candidates, query_vector, pool, alternatives)
        _with_answer_types(store, kinds, candidates)
        if fallback is None:
            wv, wt = self.options.weights
            score_of = {c.chunk_id: wv * c.vector_score + wt * c.text_score for c in candidates.values()}
        else:
            score_of = {c.chunk_id: c.text_score for c in candidates.values()}
        response.fallback = fallback
        response.fallback_notice = self._fallback_notice(report, failure) if fallback else None
        passing = sorted((cid for cid, s in score_of.items() if s >= min_score), key=lambda c: -score_of[c])
        passed = set(passing)
        spare = sorted((cid for cid in score_of if cid not in passed), key=lambda c: -score_of[c])[:pool]
        response.results = self._ranked(store, passing[:pool], spare, score_of, candidates, max_results)
        self._describe(response)
        return response

    def _describe(self, response: SearchResponse) -> None:
        if self.embedder is not None and response.fallback is None:
            response.provider, response.model = self.embedder.provider, self.embedder.model
        else:
            response.provider, response.model = "lexical", None

    def _fallback(self, report: Any) -> dict[str, str] | None:
        if self.embedder is None:
            return {
                "mode": "lexical",
                "reason": "no_provider",
                "message": Text("search.fallback.no_provider").render("en"),
            }
        if report.embedding_error:
            return {"mode": "lexical", "reason": "provider_error", "message": report.embedding_error}
        return None

    def _fallback_notice(self, report: Any, failure: EmbeddingError | None = None) -> Localized | None:
        if self.embedder is None:
            return Text("search.fallback.no_provider")
        notice: Localized | None = failure or report.embedding_failure
        return notice

    def _alias_groups(self, store: IndexStore) -> list[tuple[frozenset[str], ...]]:
        """The label groups of the whole workspace (each label as its search terms), read once
        per change of the index."""
        version = store.get_meta("generation")
        if self._aliases is None or self._aliases[0] != version:
            rows = store.db.execute("SELECT labels FROM aliases").fetchall()
            groups = [tuple(frozenset(label) for label in json.loads(row[0])) for row in rows]
            self._aliases = (version, groups)
        return self._aliases[1]

    def _alternatives(
        self, store: IndexStore, df_memo: dict[str, int], query: str, terms: list[QueryTerm]
    ) -> list[Alternative]:
        """Other ways to say the query's words: related terms from the concept thesaurus
        (search/expand.py) and the other labels of the workspace's alias groups (search/aliases.py)."""
        asked = [t.term for t in terms if t.weight >= 1 and t.whole is None]
        count, _avgdl = self._stats(store)
        df = _frequencies(store, df_memo, asked)
        if not any(df.get(term, 0) <= EXPAND_AT_MOST * count for term in asked):
            return []  # _lexical would use none of them (EXPAND_AT_MOST): the thesaurus stays unloaded
        from .expand import concept_expansions  # loads the thesaurus on the first query only

        out = [
            Alternative(e.stands_for, e.terms, e.factor, e.same)
            for e in concept_expansions(query, self.options.segmenter)
        ]
        out.extend(
            Alternative((term,), (other,), SPELLING_FACTOR) for term in asked for other in _e_forms(term)
        )
        groups = self._alias_groups(store)
        if groups:
            from .aliases import (
                ALIAS_FACTOR,
                alias_alternatives,
            )  # a workspace with no aliases never loads it

            synonyms = [(a.stands_for, a.terms) for a in out if a.same]
            out.extend(
                Alternative(stands_for, index_terms, ALIAS_FACTOR, alias=True)
                for stands_for, index_terms in alias_alternatives(asked, groups, synonyms)
            )
        return out

    @staticmethod
    def _stats(store: IndexStore) -> tuple[int, float]:
        raw = store.get_meta("stats")
        count, total = json.loads(raw) if raw else (0, 0)
        return int(count), (total / count if count else 1.0)

    def _lexical(
        self,
        store: IndexStore,
        df_memo: dict[str, int],
        terms: list[QueryTerm],
        limit: int,
        only: list[int] | None = None,
        alternatives: list[Alternative] | None = None,
    ) -> dict[int, _Candidate]:
        """The ``limit`` best chunks by text score (or the ``only`` chunks), each with the query
        terms it matched. Scoring runs as one SQL aggregate; only the winners come back to Python."""
        count, avgdl = self._stats(store)
        if not count:
            return {}
        wanted = {t.term for t in terms if t.weight > 0}
        wanted |= {ch for t in terms if t.han and len(t.term) == 2 for ch in t.term}
        df = _frequencies(store, df_memo, sorted(wanted))
        terms = _pieces_stand_in(terms, df)
        alternatives = alternatives or []
        alt_df = _frequencies(store, df_memo, sorted({term for a in alternatives for term in a.terms}))
        # Query bigrams memory knows only in another way (冲凉 said as 淋浴, 老爸 as "dad"): words
        # all the same, so a bigram between two of them (爸冲 in 老爸冲凉) is a seam. Synonyms and
        # translations only: a narrower term or an alias says less than the word (measured: with
        # them a question nothing answers found a note), and such words do not feed the edge rule
        # (_half_seams: 猫 in 猫打疫苗 is not made a half-weight word because 打疫苗 is "vaccine").
        said_otherwise = {
            term
            for a in alternatives
            if a.same and not a.alias and a.terms and all(alt_df.get(x) for x in a.terms)
            for term in a.stands_for
            if not df.get(term)
        }
        # Characters some other query word accounts for (a word the index has, or a stop word).
        seen_chars = {ch for t in terms if t.han and (t.weight == 0 or df.get(t.term)) for ch in t.term}
        terms = _half_seams(terms, df, seen_chars)
        # ... or a word it knows in another way: a bigram between two such words is a seam.
        seen_chars |= {ch for t in terms if t.han and t.term in said_otherwise for ch in t.term}

        def idf(term: str) -> float:
            return _idf(count, df.get(term, 0))

        group_of = _groups(terms, alternatives)
        plan: list[_Planned] = []
        budget = 0.0
        weight_of: dict[str, float] = {}
        for t in terms:
            if t.weight <= 0:
                continue
            present = df.get(t.term, 0) > 0
            if (
                not present
                and t.han
                and len(t.term) == 2
                and t.term not in said_otherwise
                and all(ch in seen_chars for ch in t.term)
            ):
                continue  # "书什" in 证书什么: a seam between two words, not a word
            weight = t.weight * idf(t.term)
            budget += weight
            weight_of[t.term] = weight
            group = group_of.get(t.term, t.term)
            if present:
                plan.append(_Planned(t.term, weight, True, group))
            elif t.han and len(t.term) == 2:
                # A bigram no chunk has (换过 where the note says 换了): a chunk holding its characters
                # earns up to CHAR_BACKOFF of its weight, each character by its own idf.
                total = sum(idf(ch) for ch in set(t.term)) or 1.0
                plan.extend(
                    _Planned(ch, weight * CHAR_BACKOFF * idf(ch) / total, False, group) for ch in set(t.term)
                )
        if budget <= 0:
            return {}
        for n, alternative in enumerate(alternatives):
            # Another way to say some query words: a chunk earns ``factor`` of their weight through
            # it, never more than once (the best way counts, see _score_rows); it adds nothing to
            # the budget, so a chunk that says the words themselves loses nothing. It counts only
            # in a chunk that holds all its terms (商业险 is not said by a note that says 商业).
            stands_for = sum(weight_of.get(term, 0.0) for term in alternative.stands_for)
            if stands_for <= 0 or not alternative.terms:
                continue
            if not all(alt_df.get(term) for term in alternative.terms):
                continue  # counts only where a chunk says all of it, and some term is in none
            if all(df.get(term, 0) > EXPAND_AT_MOST * count for term in alternative.stands_for):
                continue  # the words themselves are in many notes: another way of saying them adds noise
            # An alternative far more common than the words it stands for (时间 for "deadline")
            # is no evidence for them: one whose idf is under ALTERNATIVE_MIN_RARITY of theirs is
            # left out (which also keeps the ranking's scan short at 18k chunks).
            own = [idf(term) for term in alternative.stands_for if term in weight_of]
            rarity = min(
                1.0, min(_idf(count, alt_df[term]) for term in alternative.terms) / (sum(own) / len(own))
            )
            if rarity < ALTERNATIVE_MIN_RARITY:
                continue
            share = alternative.factor * stands_for / len(alternative.terms)
            group = group_of.get(alternative.stands_for[0], alternative.stands_for[0])
            way = f"{'alias' if alternative.alias else 'alt'}{n}" if alternative.same else f"narrower{n}"
            need = len(set(alternative.terms))
            plan.extend(_Planned(term, share, True, group, way, need) for term in set(alternative.terms))
        if not plan:
            return {}
        rows = _score_rows(store, plan, avgdl, limit, only)
        candidates = {cid: _Candidate(cid, text_score=total / budget) for cid, total in rows}
        _fill_matched(store, plan, avgdl, candidates)
        unknown = _unknown_words(terms, df, plan, group_of, weight_of)
        if unknown:
            _demand_two_words(candidates, terms, df, group_of, weight_of, self.options.min_score)
        return candidates

    def _hybrid(
        self,
        store: IndexStore,
        df_memo: dict[str, int],
        terms: list[QueryTerm],
        candidates: dict[int, _Candidate],
        query_vector: list[float],
        pool: int,
        alternatives: list[Alternative],
    ) -> dict[int, _Candidate]:
        """The union of the lexical pool and the ``pool`` nearest chunks, each with both scores."""
        raw = {cid: _dot(query_vector, vector) for cid, vector in self._chunk_vectors(store)}
        cosine = _calibrated(raw)
        top_vector = sorted(cosine, key=lambda cid: -cosine[cid])[:pool]
        merged: dict[int, _Candidate] = dict(candidates)
        missing = [cid for cid in top_vector if cid not in merged]
        if missing:  # their text scores too, so that final = w_v·vector + w_t·text holds for every one
            merged.update(
                self._lexical(store, df_memo, terms, len(missing), only=missing, alternatives=alternatives)
            )
        for cid in top_vector:
            merged.setdefault(cid, _Candidate(cid))
        for cid, candidate in merged.items():
            candidate.vector_score = cosine.get(cid, 0.0)
        return merged

    def _chunk_vectors(self, store: IndexStore) -> list[tuple[int, array.array[float]]]:
        """Every chunk's stored vector, decoded once per process and kept while the index stays
        the same (a long-lived caller no longer decodes 18k blobs per query)."""
        assert self.embedder is not None
        key = (
            self.embedder.provider,
            self.embedder.model,
            store.get_meta("generation"),
            *store.db.execute(
                "SELECT count(*) FROM embeddings WHERE provider = ? AND model = ?",
                (self.embedder.provider, self.embedder.model),
            ).fetchone(),
        )
        if self._vectors is None or self._vectors[0] != key:
            rows = store.db.execute(
                "SELECT c.id, e.vector FROM chunks c JOIN embeddings e ON e.hash = c.hash "
                "WHERE e.provider = ? AND e.model = ?",
                (self.embedder.provider, self.embedder.model),
            ).fetchall()
            self._vectors = (key, [(int(cid), blob_vector(blob)) for cid, blob in rows])
        return self._vectors[1]

    def _decay(self, day: str | None, today: date) -> float:
        if day is None:
            return 1.0
        try:
            age = max(0, (today - date.fromisoformat(day)).days)
        except ValueError:
            return 1.0
        floor = self.options.recency_floor
        return float(floor + (1 - floor) * 0.5 ** (age / self.options.half_life_days))

    def _ranked(
        self,
        store: IndexStore,
        chunk_ids: list[int],
        spare_ids: list[int],
        score_of: dict[int, float],
        candidates: dict[int, _Candidate],
        max_results: int,
    ) -> list[SearchHit]:
        """Results in order: relevance × recency, then newer notes above the ones they supersede.
        ``spare_ids`` (below ``min_score``) may only come in as the newer version of a result."""
        if not chunk_ids:
            return []
        wanted = [*chunk_ids, *spare_ids]
        marks = ",".join("?" * len(wanted))
        rows = store.db.execute(
            f"SELECT id, path, source, start_line, end_line, text, day, heading FROM chunks WHERE id IN ({marks})",
            wanted,
        ).fetchall()
        today = self.today()
        spare = set(spare_ids)
        hits: list[SearchHit] = []
        others: list[SearchHit] = []
        matched_of: dict[tuple[str, int], dict[str, float]] = {}
        said_of: dict[tuple[str, int], dict[str, set[str]]] = {}
        sections: dict[tuple[str, int], tuple[str, str]] = {}
        for cid, path, source, start, end, text, day, heading in rows:
            score = score_of[cid]
            matched_of[(path, start)] = candidates[cid].matched if cid in candidates else {}
            said_of[(path, start)] = candidates[cid].said if cid in candidates else {}
            sections[(path, start)] = (heading, text)
            matched = sorted(candidates[cid].shown) if cid in candidates else []
            hit = SearchHit(
                path, start, end, score, _snippet(text, matched), source, day, score * self._decay(day, today)
            )
            (others if cid in spare else hits).append(hit)
        hits.sort(key=lambda h: (-h.rank_score, -h.score, h.path, h.start_line))
        others.sort(key=lambda h: (-h.score, h.path, h.start_line))
        segmenter = self.options.segmenter
        cache: dict[tuple[str, int], frozenset[str]] = {}

        def subject_of(key: tuple[str, int]) -> frozenset[str]:
            # Tokenized only for the few pairs that get this far (the ranking stays in budget).
            if key not in cache:
                heading, text = sections.get(key, ("", ""))
                cache[key] = subject_terms(heading, text, segmenter)
            return cache[key]

        facts: dict[tuple[str, int], _LineFacts] = {}

        def facts_of(key: tuple[str, int]) -> _LineFacts:
            # Each chunk's lines tokenized once per search: the supersession pairs ask about the
            # same few chunks again and again, with different query words.
            if key not in facts:
                facts[key] = _line_facts(sections.get(key, ("", ""))[1], segmenter)
            return facts[key]

        def changes_of(key: tuple[str, int], terms: list[str]) -> set[str]:
            # Which of ``terms`` a line that gives a new value names, when one of its clauses says
            # one of them changed ("排行榜 API 已迁到 Hetzner, 新 IP …": the line's IP too; but
            # "Immich 升到 v1.120，升级前先备份了…" says nothing changed about 备份). Only for
            # the few pairs that get here.
            forms = _forms(said_of.get(key, {}), terms)
            wanted = set().union(*forms.values()) if forms else set()
            named: set[str] = set()
            chunk = facts_of(key)
            for title_terms, title_changes in chunk.headings:
                # A heading that says its subject changed ("皂坊 快递换了", "SSH port changed")
                # speaks for the note, when the note under it gives a value (the new one)
                # and the heading names two of the question's words: one alone may be another
                # property of the thing ("restic 备份迁到 R2" says nothing new about how long
                # backups are kept).
                named_here = _named(forms, title_terms)
                if len(named_here) >= HEADING_CHANGE_WORDS and title_changes:
                    named |= named_here
            for line_terms, changing_clauses in chunk.valued:
                if any(not wanted.isdisjoint(clause) for clause in changing_clauses):
                    named |= _named(forms, line_terms)
            return named

        def versions_of(key: tuple[str, int], terms: set[str]) -> set[str]:
            # Dotted numbers (versions, addresses) on the lines that name one of ``terms``.
            forms = _forms(said_of.get(key, {}), terms)
            return {
                version
                for line_terms, versions in facts_of(key).lines
                if versions and _named(forms, line_terms)
                for version in versions
            }

        return _newer_first(hits, others, matched_of, subject_of, changes_of, versions_of, max_results)[
            :max_results
        ]

    # -- memory_get ---------------------------------------------------------------------------
    def get(self, path: str, *, from_line: int | None = None, lines: int | None = None) -> GetResult:
        return read_memory_file(self.workspace, self.options, path, from_line=from_line, lines=lines)


def _idf(count: int, df: int) -> float:
    """BM25's idf, smoothed (N + 1 over df + 0.5) so that it stays positive for words in every
    chunk and, in a workspace of a few notes, an unseen word does not outweigh every real match
    (N = 1: unseen 1.6 vs present 0.8, instead of 1.4 vs 0.3)."""
    return math.log(1 + (count + 1) / (df + 0.5))


ALTERNATIVE_MIN_RARITY = 0.3
EXPAND_AT_MOST = 0.02  # alternatives only for query words at most this share of chunks hold


def _frequencies(store: IndexStore, memo: dict[str, int], terms: list[str]) -> dict[str, int]:
    """Document frequencies of ``terms`` (absent ones left out), each counted once per search
    (``memo``, one per search): the ranking asks for the query's words several times, and counting
    the postings of a common character is most of a query's SQL time at 18k chunks."""
    missing = [term for term in terms if term not in memo]
    if missing:
        found = _document_frequencies(store, missing)
        memo.update((term, found.get(term, 0)) for term in missing)
    return {term: memo[term] for term in terms if memo[term]}


def _document_frequencies(store: IndexStore, terms: list[str]) -> dict[str, int]:
    if not terms:
        return {}
    marks = ",".join("?" * len(terms))
    sql = f"SELECT term, count(*) FROM postings WHERE term IN ({marks}) GROUP BY term"
    return {term: int(n) for term, n in store.db.execute(sql, terms)}


_SATURATED = f"min(1.0, p.tf * {_K1 + 1} / (p.tf + {_K1} * (1 - {_B} + {_B} * p.dl / ?)))"


class Alternative(NamedTuple):
    """Another way to say some of the query's words: ``terms`` (index terms, all needed for the
    full ``factor``) stand for the query terms ``stands_for`` (an alias, a concept)."""

    stands_for: tuple[str, ...]
    terms: tuple[str, ...]
    factor: float
    same: bool = True  # the same word said otherwise (alias, synonym); False: a narrower term
    # A label of the same person or thing (晓晓 for "wife"): it says who, not what about them, so
    # a line that names it says nothing of the query's subject changing (see _forms).
    alias: bool = False


class _Planned(NamedTuple):
    """One indexed term the ranking looks up: its weight, whether BM25 saturation applies, the
    group of query words it answers and which way of saying them it belongs to ("" = the query's
    own words). Within a way the terms add up; of the ways of one group only the best counts."""

    term: str
    weight: float
    saturate: bool
    group: str
    way: str = ""
    need: int = 1  # how many of its way's terms a chunk must hold for the way to count


def _groups(terms: list[QueryTerm], alternatives: list[Alternative]) -> dict[str, str]:
    """Query term → the group it is scored in: terms an alternative stands for together (the
    three bigrams of 热水器 for "water heater") form one group, named by the first of them."""
    parent = {t.term: t.term for t in terms}

    def root(term: str) -> str:
        while parent[term] != term:
            term = parent[term]
        return term

    for alternative in alternatives:
        known = [term for term in alternative.stands_for if term in parent]
        for term in known[1:]:
            parent[root(term)] = root(known[0])
    return {term: root(term) for term in parent}


def _score_rows(
    store: IndexStore,
    plan: list[_Planned],
    avgdl: float,
    limit: int,
    only: list[int] | None,
) -> list[tuple[int, float]]:
    values = ",".join("(?, ?, ?, ?, ?, ?)" for _ in plan)
    params: list[Any] = [x for p in plan for x in (p.term, p.weight, int(p.saturate), p.group, p.way, p.need)]
    where = ""
    if only is not None:
        if not only:
            return []
        where = f"WHERE p.chunk_id IN ({','.join('?' * len(only))})"
    if not any(p.way for p in plan):  # no alternatives: one aggregate is enough (the common case)
        sql = (
            f"WITH q(term, w, sat, grp, way, need) AS (VALUES {values}) "
            f"SELECT p.chunk_id, sum(q.w * CASE WHEN q.sat THEN {_SATURATED} ELSE 1.0 END) AS s "
            f"FROM q JOIN postings p ON p.term = q.term {where} GROUP BY p.chunk_id ORDER BY s DESC LIMIT ?"
        )
        args = [*params, avgdl, *(only or []), limit]
        return [(int(cid), float(total)) for cid, total in store.db.execute(sql, args)]
    sql = (
        f"WITH q(term, w, sat, grp, way, need) AS (VALUES {values}), "
        f"ways AS (SELECT p.chunk_id AS cid, q.grp AS grp, "
        f"sum(q.w * CASE WHEN q.sat THEN {_SATURATED} ELSE 1.0 END) AS v "
        f"FROM q JOIN postings p ON p.term = q.term {where} GROUP BY p.chunk_id, q.grp, q.way HAVING count(*) >= max(q.need)), "
        f"best AS (SELECT cid, max(v) AS v FROM ways GROUP BY cid, grp) "
        f"SELECT cid, sum(v) AS s FROM best GROUP BY cid ORDER BY s DESC LIMIT ?"
    )
    args = [*params, avgdl, *(only or []), limit]
    return [(int(cid), float(total)) for cid, total in store.db.execute(sql, args)]


def _fill_matched(
    store: IndexStore,
    plan: list[_Planned],
    avgdl: float,
    candidates: dict[int, _Candidate],
) -> None:
    """Which query terms (groups) each candidate matched, and for how much (snippets,
    supersession), by the same best-way rule as :func:`_score_rows`; and the index terms that
    did it (where a snippet centres)."""
    if not candidates:
        return
    by_term: dict[str, list[_Planned]] = {}
    for planned in plan:
        by_term.setdefault(planned.term, []).append(planned)
    ids = list(candidates)
    terms = list(by_term)
    sql = (
        f"SELECT chunk_id, term, tf, dl FROM postings WHERE term IN ({','.join('?' * len(terms))}) "
        f"AND chunk_id IN ({','.join('?' * len(ids))})"
    )
    ways: dict[int, dict[tuple[str, str], list[Any]]] = {}  # (group, way) → [value, terms, need, shown]
    for cid, term, tf, dl in store.db.execute(sql, [*terms, *ids]):
        for planned in by_term[term]:
            saturated = tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * dl / avgdl))
            share = min(1.0, saturated) if planned.saturate else 1.0
            way = ways.setdefault(cid, {}).setdefault(
                (planned.group, planned.way), [0.0, 0, planned.need, []]
            )
            way[0] += planned.weight * share
            way[1] += 1
            way[3].append(term)
    for cid, per_way in ways.items():
        candidate = candidates[cid]
        for (group, way_name), (value, count, need, shown) in per_way.items():
            if count >= need:  # the same rule as _score_rows: a way counts when all of it is there
                candidate.matched[group] = max(candidate.matched.get(group, 0.0), value)
                candidate.shown.update(shown)
                if way_name.startswith("alt"):  # a synonym or translation (not an alias, not a back-off)
                    candidate.said.setdefault(group, set()).update(shown)


SPELLING_FACTOR = 0.9  # "stored" (stemmed stor) and "store" are one word


def _e_forms(term: str) -> tuple[str, ...]:
    """The light stemmer drops -ed/-ing but cannot know a lost silent e (stored → stor, store →
    store): the other form of a plain English word, as an alternative."""
    if not term.isascii() or not term.isalpha() or len(term) < 3:
        return ()
    return (term[:-1],) if term.endswith("e") else (term + "e",)


WORD_ANSWERED = 0.35  # a word counts as answered by a chunk that earns this share of its weight


def _unknown_words(
    terms: list[QueryTerm],
    df: dict[str, int],
    plan: list[_Planned],
    group_of: dict[str, str],
    weight_of: dict[str, float],
) -> list[str]:
    """The query's words no note holds, in no way it knows (护照, Kubernetes, Etsy's 佣金): whole
    words in the budget (not identifier pieces, not seams), absent from the index, with no
    alternative any chunk holds."""
    candidates = [
        t.term
        for t in terms
        if t.weight >= 1 and t.whole is None and not df.get(t.term) and t.term in weight_of
    ]
    if not candidates:
        return []
    # Known through another way of saying it that some chunk holds (the plan holds only such
    # terms): an alias, a synonym, a translation, or a narrower term — a kind of it, so 儿子 makes
    # 孩子 known and "孩子对什么过敏" may be answered by a note on the son. (Broader terms are never
    # alternatives: 证件 does not make 护照 known.)
    answered_groups = {p.group for p in plan if p.way.startswith(("alt", "alias", "narrower"))}
    return [term for term in candidates if group_of.get(term) not in answered_groups]


def _demand_two_words(
    candidates: dict[int, _Candidate],
    terms: list[QueryTerm],
    df: dict[str, int],
    group_of: dict[str, str],
    weight_of: dict[str, float],
    alone: float,
) -> None:
    """When the query holds a word memory has never seen, a chunk that answers only one of its
    words is not an answer: "护照什么时候过期" is not answered by a note on a token's 过期, nor
    "guest Wi-Fi password" by a note that mentions Wi-Fi. Such a chunk's text score drops to 0
    (it stays a candidate for the newer-note rule only). A whole identifier answers on its own."""
    group_weight: dict[str, float] = {}
    for term, weight in weight_of.items():
        group = group_of.get(term, term)
        group_weight[group] = group_weight.get(group, 0.0) + weight
    whole_words = {group_of.get(t.term, t.term) for t in terms if t.weight >= 1 and t.whole is None}
    identifiers = {group_of.get(t.term, t.term) for t in terms if t.whole is None and is_identifier(t.term)}
    # A group answered through another way of saying it stands for as many words as it holds:
    # "home loan" said as "mortgage" answers two words, as a note saying "home loan" would. A Han
    # bigram counts as a word only if the index holds it: 身房 in 健身房 or 打疫 in 打疫苗 is the
    # inside of one word, not a second one (counting them emptied two negatives, two authors).
    words_in: dict[str, int] = {}
    for t in terms:
        if t.weight >= 1 and t.whole is None and t.term in weight_of and (not t.han or df.get(t.term)):
            group = group_of.get(t.term, t.term)
            words_in[group] = words_in.get(group, 0) + 1
    head = next(
        (
            group_of.get(t.term, t.term)
            for t in terms
            if t.weight >= 1 and t.whole is None and t.term in weight_of
        ),
        None,
    )
    for candidate in candidates.values():
        answered = [
            group
            for group, value in candidate.matched.items()
            if group in whole_words and value >= WORD_ANSWERED * group_weight.get(group, 1.0)
        ]
        words = sum(words_in.get(group, 1) for group in answered)
        if words >= 2 or any(group in identifiers for group in answered):
            continue
        if _said_otherwise_alone(candidate, answered, alone, head):
            continue
        candidate.text_score = 0.0


def _said_otherwise_alone(candidate: _Candidate, answered: list[str], alone: float, head: str | None) -> bool:
    """One word is enough when it is the question's *head* — its first content word, the thing a
    question names before what it asks of it (a Chinese topic comes first: 理赔进度, 物理治疗师对…的建议;
    so does the thing after "how much"/"which") — the note says it another way (a synonym or
    translation, never an alias), and that word alone carries ``alone`` (``min_score``) of the
    question. Measured: without the head condition four negatives of three authors came back
    (护照什么时候过期 → a note's "best before" for 过期, "how much bitcoin did I buy" → "bought",
    猫打疫苗 → "vaccine"): there the word memory never saw is the thing, the matched one only
    what is asked of it. The word itself, not said otherwise, is never enough on its own."""
    return (
        len(answered) == 1
        and answered[0] == head
        and answered[0] in candidate.said
        and candidate.text_score >= alone
    )


def _half_seams(terms: list[QueryTerm], df: dict[str, int], seen_chars: set[str]) -> list[QueryTerm]:
    """A bigram no chunk holds, one of whose characters a word the index has accounts for (限设 in
    内存上限设的多少: 上限 holds 限), is the edge of that word, not a word of its own. Its other
    character is either part of another query bigram the index has (换 in 电池换成: 换成 speaks for
    it), and the edge is dropped, or a one-character word (设 "set"), which stays at SINGLE_HAN_WEIGHT like a lone
    character between question words. Without this the edge counts as a word memory never saw,
    and the note that answers everything else is held to "answer two words"."""
    bigrams = [t for t in terms if t.han and len(t.term) == 2 and t.weight > 0]
    out: list[QueryTerm] = []
    have = {t.term for t in terms}
    for t in terms:
        if t not in bigrams or df.get(t.term) or all(ch in seen_chars for ch in t.term):
            out.append(t)
            continue
        rest = [ch for ch in t.term if ch not in seen_chars]
        if len(rest) != 1:
            out.append(t)  # neither character is accounted for: a word (护照), absent or not
            continue
        char = rest[0]
        others = [other for other in bigrams if other is not t and char in other.term]
        if others and not any(df.get(other.term) for other in others):
            out.append(t)  # 盘换 in 硬盘换过: 换过 is no word the index has either, so keep both as they were
            continue
        if others:
            continue
        if char not in have:
            out.append(QueryTerm(char, t.weight * SINGLE_HAN_WEIGHT, True))
            have.add(char)
    return out


def _pieces_stand_in(terms: list[QueryTerm], df: dict[str, int]) -> list[QueryTerm]:
    """An identifier no note holds as written (``203.0.113.47:8443`` where the note says
    ``203.0.113.47``, a longer hash than the note's) hands its weight to its pieces, so a note with
    the pieces can still reach ``min_score``; a made-up identifier's pieces rarely all match."""
    absent = {t.term for t in terms if t.weight > 0 and not t.han and not df.get(t.term)}
    pieces: dict[str, list[QueryTerm]] = {}
    for t in terms:
        if t.whole in absent and t.weight > 0:
            pieces.setdefault(t.whole, []).append(t)
    if not pieces:
        return terms
    bonus: dict[str, float] = {}
    for group in pieces.values():
        total = sum(p.weight for p in group)
        for p in group:
            bonus[p.term] = bonus.get(p.term, 0.0) + p.weight / total
    out = []
    for t in terms:
        if t.term in pieces:
            continue  # its weight now sits on its pieces
        extra = bonus.get(t.term, 0.0)
        out.append(QueryTerm(t.term, t.weight + extra, t.han, t.whole) if extra else t)
    return out


ANSWER_TYPE_SHARE = 0.2  # how much of the way to a full score a value of the asked kind goes
ANSWER_TYPE_FLOOR = 0.15  # ... for a chunk that already answers this much of the question's words


def _without_frame_words(query: str, kinds: frozenset[str], terms: list[QueryTerm]) -> list[QueryTerm]:
    """A question's words that only restate the kind of value it asks for ("charge" in "how much
    did the voice actor charge") score nothing, like the question words (search/answers.py);
    ``kinds`` are the kinds of value the question asks for (``answers.asked_kinds``). Only a frame
    word inside the phrase that asks goes: "root" in "root cause", not in "why is the root partition full"."""
    from .answers import frame_words, question_phrases

    frame = frame_words(kinds)
    if frame:
        said = {t.term for phrase in question_phrases(query, kinds) for t in query_terms(phrase)}
        frame = frame & said
    if not frame or all(t.term in frame or t.weight <= 0 for t in terms):
        return terms
    return [QueryTerm(t.term, 0.0, t.han, t.whole) if t.term in frame else t for t in terms]


def _with_answer_types(store: IndexStore, kinds: frozenset[str], candidates: dict[int, _Candidate]) -> None:
    """A chunk that holds a value of the kind the question asks for (a date for 什么时候/"when",
    an amount for 多少钱/"how much … cost", search/answers.py) is likelier the answer than one that
    only names the subject: it goes ANSWER_TYPE_SHARE of the way from its text score to 1. Only for
    a chunk that answers at least ANSWER_TYPE_FLOOR of the question's words some way (a value
    alone answers nothing), and never lowering one that holds no such value. Near a full score
    it moves a chunk little (a bonus in the order as well, like recency, was measured: no dev set
    gained)."""
    if not kinds:  # most questions ask for no kind of value
        return
    eligible = [cid for cid, c in candidates.items() if c.text_score >= ANSWER_TYPE_FLOOR]
    if not eligible:
        return
    from .answers import holds_kind

    marks = ",".join("?" * len(eligible))
    for cid, text in store.db.execute(f"SELECT id, text FROM chunks WHERE id IN ({marks})", eligible):
        if holds_kind(text, kinds):
            candidate = candidates[cid]
            candidate.text_score += ANSWER_TYPE_SHARE * (1.0 - candidate.text_score)


def _supersedes(
    new: SearchHit,
    old: SearchHit,
    matched_of: dict[tuple[str, int], dict[str, float]],
    subject_of: Callable[[tuple[str, int]], frozenset[str]],
    changes_of: Callable[[tuple[str, int], list[str]], set[str]],
    versions_of: Callable[[tuple[str, int], set[str]], set[str]],
    below_min: bool = False,
) -> bool:
    """Is ``new`` a later note about the same thing the query found in ``old``?

    Either — both above ``min_score`` — it matches nearly all the query weight ``old`` matches
    (SUPERSEDE_COVERAGE), scores nearly as well (SUPERSEDE_SCORE) and shares a subject term with
    it or says that a query term changed (the two signals below); or — ``new`` may then come
    from below ``min_score`` (``below_min``) — both notes are *about* the same thing — their subjects
    (heading words and identifiers, :func:`subject_terms`) share SUBJECT_SHARED terms, one of them
    a query term both match — and the newer one matches SUPERSEDE_COVERAGE of what the older one
    does once the query words it could only hold in the other language are set aside: a note that
    says "上游 DNS 换成 Quad9" replaces "upstream set to Cloudflare" for an English question.
    Numbers and identifiers read the same in both languages, so they are never set aside.
    Or — again from below ``min_score`` too — a clause of ``new`` (on a line with a value) says the
    thing changed (:func:`savenow.text.changes.states_a_change`: 改到, 换成, "moved to" …) and
    names query terms both notes match that carry CHANGE_SHARED of what ``old`` matches
    (:func:`_units`, so that seams between query words do not decide it) — unless
    ``old`` holds an identifier of the query that ``new`` lacks (the query asks for exactly that).
    """
    if old.day is None or new.day is None or new.day <= old.day:
        return False
    old_terms = matched_of.get((old.path, old.start_line), {})
    old_weight = sum(old_terms.values())
    if not old_weight:
        return False
    new_terms = matched_of.get((new.path, new.start_line), {})
    shared_terms = [term for term in old_terms if term in new_terms]
    coverage = sum(old_terms[term] for term in shared_terms) / old_weight
    # The query's own change words (改成 in 端口改成多少了) say nothing about which note is newer.
    changed = (
        changes_of((new.path, new.start_line), [t for t in shared_terms if not _is_change_word(t)])
        if shared_terms and coverage >= VERSION_SHARED
        else set()
    )

    def common() -> frozenset[str]:  # tokenizes both notes: only for the pairs that need it
        return subject_of((old.path, old.start_line)) & subject_of((new.path, new.start_line))

    # Matching the same query words is not enough on its own: "我 过敏 打喷嚏" on a trip does not
    # replace "allergic to peanuts". The newer note must also be about the same thing (a shared
    # subject term) or say that something the query asks about changed.
    close = coverage >= SUPERSEDE_COVERAGE and new.score >= SUPERSEDE_SCORE * old.score
    if not below_min and close and (changed or common()):
        return True
    if changed and not any(_names_a_value(term) and term not in new_terms for term in old_terms):
        units = _units(old_terms)
        covered = _units({term: old_terms[term] for term in changed})
        if sum(units[u] for u in covered) >= CHANGE_SHARED * sum(units.values()):
            return True  # "游泳课改到周日 3 点" after "游泳课 周六 9:30": it says the thing changed
        old_versions = versions_of((old.path, old.start_line), changed)
        if old_versions and versions_of((new.path, new.start_line), changed) - old_versions:
            return True  # "升级到 Godot 4.3" after "锁定 Godot 4.2.2": a new version of the same thing
    # Same subject: query words the newer note lacks only because it is written in the other
    # language do not count against it (it may say 上游 where the older one said "upstream").
    missing_words = [(t, w) for t, w in old_terms.items() if t not in new_terms and _is_word(t)]
    if not missing_words:  # nothing to excuse (most pairs): the newer note's script is not read
        return False
    new_is_han = _mostly_han(new.snippet)
    excused = sum(weight for term, weight in missing_words if _is_han(term) != new_is_han)
    if excused <= 0 or excused >= old_weight:
        return False
    same_subject = common()
    if len(same_subject) < SUBJECT_SHARED or not any(term in same_subject for term in shared_terms):
        return False
    return coverage * old_weight / (old_weight - excused) >= SUPERSEDE_COVERAGE


@functools.lru_cache(maxsize=4096)
def _is_change_word(term: str) -> bool:
    """Whether a query term is itself a word of changing (改成 in 端口改成多少了); asked for the
    same few terms by every result pair, so remembered."""
    return states_a_change(term)


def _forms(said: dict[str, set[str]], groups: Iterable[str]) -> dict[str, set[str]]:
    """Each query word (group) with the ways a chunk said it: the word itself and, when the chunk
    said it in the other language, that translation (照片备份 … 版本 said as "photo backup … 60
    versions"), so a change written in the other language still names the word. Same-language
    synonyms are left out: "server" in "ClickHouse moved to clickhouse-server" says nothing of
    where a thing is *hosted*."""
    return {
        group: {group} | {term for term in said.get(group, ()) if _is_han(term) != _is_han(group)}
        for group in groups
    }


def _is_han(term: str) -> bool:
    return HAN_RUN.match(term) is not None


def _named(forms: dict[str, set[str]], line_terms: Iterable[str]) -> set[str]:
    """The query words (groups of ``forms``) that a line's terms say in some way."""
    present = set(line_terms)
    return {group for group, ways in forms.items() if not ways.isdisjoint(present)}


def _names_a_value(term: str) -> bool:
    """An identifier that is a value the query asks for exactly (``clickhouse-server:24.8``, an
    address, a version, a port: dotted digits or ``:digits``), not the name of the thing
    (``douro-vps``, ``tidepool-api``, ``nas01``). An older note holding such a value that the newer one lacks answers a
    question about *that* value; a newer note that leaves out the thing's name ("Postgres
    ``max_connections`` raised to 150" after "douro-vps Postgres ``max_connections`` 100") still
    says the thing changed."""
    return is_identifier(term) and (_DOTTED.search(term) is not None or _PORT_OR_TAG.search(term) is not None)


# a port or an image tag after a name: ``redis:6380``, ``clickhouse-server:24`` (``nas01``, ``m4-studio``, ``ec2``
# are names that hold a digit, not values)
_PORT_OR_TAG = re.compile(r":\d+")


def _units(matched: dict[str, float]) -> dict[str, float]:
    """Matched query weight per unit of meaning: a Han bigram's weight is shared by its two
    characters, each keeping the smallest share any bigram gives it, so the seam between two query
    words (雨游 in 小雨游泳课, rare and so heavy) weighs no more than the words on either side."""
    units: dict[str, float] = {}
    for term, weight in matched.items():
        if len(term) == 2 and HAN_RUN.fullmatch(term):
            for char in term:
                units[char] = min(units.get(char, weight / 2), weight / 2)
        else:
            units[term] = weight
    return units


def _is_word(term: str) -> bool:
    """A word of one language (Latin letters or Han), not a number or identifier, which read the
    same in any language and so can never be excused as "said in the other language"."""
    return term.isalpha()


@functools.lru_cache(maxsize=1024)
def _mostly_han(text: str) -> bool:
    """Whether Han characters carry most of ``text`` (one token each; other text a token per 4 chars).
    Asked of the same few snippets by many result pairs, so remembered."""
    han = sum(len(run) for run in HAN_RUN.findall(text))
    other = sum(map(str.isalnum, text)) - han
    return han > other / 4


def _newer_first(
    hits: list[SearchHit],
    spare: list[SearchHit],
    matched_of: dict[tuple[str, int], dict[str, float]],
    subject_of: Callable[[tuple[str, int]], frozenset[str]],
    changes_of: Callable[[tuple[str, int], list[str]], set[str]],
    versions_of: Callable[[tuple[str, int], set[str]], set[str]],
    max_results: int,
) -> list[SearchHit]:
    """A newer note that supersedes a shown result (:func:`_supersedes`) moves just above it — from
    lower in the results, or from the ``spare`` chunks below ``min_score``: a later note that
    restates the fact may share fewer of the query's words than the note it replaces, and is still
    the answer. Decay alone cannot promise this order when the old note repeats the query's words.
    """
    ordered = list(hits)
    spare = list(spare)
    # Each round starts over after a move, so the same pairs come up again: the verdict on a pair
    # depends only on the two notes and whether the newer one comes from below min_score.
    verdicts: dict[tuple[int, int, bool], bool] = {}

    def supersedes(new: SearchHit, old: SearchHit, below_min: bool) -> bool:
        key = (id(new), id(old), below_min)
        if key not in verdicts:
            verdicts[key] = _supersedes(new, old, matched_of, subject_of, changes_of, versions_of, below_min)
        return verdicts[key]

    for _round in range(len(ordered) + len(spare) + 1):
        moved = False
        for i, old in enumerate(ordered[:max_results]):
            for pool, start in ((ordered, i + 1), (spare, 0)):
                j = next(
                    (k for k in range(start, len(pool)) if supersedes(pool[k], old, pool is spare)),
                    None,
                )
                if j is not None:
                    ordered.insert(i, pool.pop(j))
                    moved = True
                    break
            if moved:
                break
        if not moved:
            break
    return ordered


def _calibrated(raw: dict[int, float]) -> dict[int, float]:
    """Cosines on a 0..1 scale that means the same for every model: 0 at the query's median
    chunk, 1 at a perfect match. Models differ wildly in their baseline (e5 puts unrelated text
    at ~0.8, OpenAI's at ~0.1), so raw cosines would let the baseline, not the match, decide
    the hybrid score and make ``min_score`` meaningless."""
    if not raw:
        return {}
    ordered = sorted(raw.values())
    median = ordered[len(ordered) // 2]
    span = max(1e-6, 1.0 - median)
    return {cid: max(0.0, min(1.0, (value - median) / span)) for cid, value in raw.items()}


def _dot(a: list[float], b: Any) -> float:
    return float(sum(map(operator.mul, a, b)))  # one C-level pass, no per-pair Python frame


def _snippet(text: str, matched_terms: list[str]) -> str:
    """The chunk, or — when longer than 700 characters — the window around its best-matching line."""
    if len(text) <= SNIPPET_CHARS:
        return text
    lines = text.split("\n")

    def hits(line: str) -> int:
        folded = fold_traditional(line.casefold())
        return sum(1 for term in matched_terms if term in folded)

    best = max(range(len(lines)), key=lambda i: hits(lines[i])) if matched_terms else 0
    low = high = best
    size = len(lines[best])
    while True:
        grown = False
        for candidate in (high + 1, low - 1):
            if 0 <= candidate < len(lines) and size + len(lines[candidate]) + 1 <= SNIPPET_CHARS:
                size += len(lines[candidate]) + 1
                low, high = min(low, candidate), max(high, candidate)
                grown = True
        if not grown:
            break
    return "\n".join(lines[low : high + 1])[:SNIPPET_CHARS]


@dataclass(frozen=True)
class _LineFacts:
    """What the supersession rules read from one chunk's lines, tokenized once: the lines that
    hold dotted numbers (versions, addresses), with their terms and those numbers; the headings whose section gives a value, with their title's
    terms and whether the title says a change; and the lines holding a digit, with their terms
    and the terms of each clause that says a change."""

    lines: list[tuple[frozenset[str], list[str]]]
    headings: list[tuple[frozenset[str], bool]]
    valued: list[tuple[frozenset[str], list[frozenset[str]]]]


def _line_facts(text: str, segmenter: str) -> _LineFacts:
    lines = text.split("\n")
    every: list[tuple[frozenset[str], list[str]]] = []
    headings: list[tuple[frozenset[str], bool]] = []
    valued: list[tuple[frozenset[str], list[frozenset[str]]]] = []
    for number, line in enumerate(lines):
        if line.startswith("#") and _body_gives_a_value(lines[number + 1 :]):
            title = HEADING_PREFIX.sub("", line)
            headings.append((frozenset(document_terms(title, segmenter)), states_a_change(title)))
        if not any(ch.isdigit() for ch in line):
            continue  # no value and no dotted number: nothing the rules read (most lines)
        versions = _DOTTED.findall(line)
        changing = (
            []
            if line.startswith("#")
            else [
                frozenset(document_terms(clause, segmenter))
                for clause in _CLAUSE_BREAK.split(line)
                if states_a_change(clause)
            ]
        )
        if not versions and not changing:
            continue
        line_terms = frozenset(document_terms(line, segmenter))
        if versions:
            every.append((line_terms, versions))
        if changing:
            valued.append((line_terms, changing))
    return _LineFacts(every, headings, valued)


def _body_gives_a_value(lines: list[str]) -> bool:
    """Whether the lines under a heading, up to the next one, hold a number (a value)."""
    for line in lines:
        if line.startswith("#"):
            return False
        if any(ch.isdigit() for ch in line):
            return True
    return False
