"""Keeping the index in step with the files: discovery, incremental sync, embeddings (DESIGN §12).

Each sync stats every source file; only a file whose (size, mtime, ctime) changed is read, and
only a file whose content hash changed is re-chunked (ctime because a program may set the mtime
back — ``cp -p``, rsync — and only the kernel sets ctime). A file changed within :data:`RACY_NS`
of the scan is stored as "racy" and re-hashed by the next scan: on a coarse clock a second write
of the same size in the same tick would keep both times. From its second full scan on, a long-lived
sync arms a :class:`~savenow.search.watch.ChangeFeed` first (Linux), and while the kernel reports
nothing under the sources a sync stats only the files it cannot vouch for (hard links);
docs/search.md has the reasoning. A change of chunking, tokenizer or segmenter (the
"signature") or of the embeddings provider/model empties the index and builds it again; the
embedding cache survives, keyed by (provider, model, chunk hash).
"""

from __future__ import annotations

import array
import json
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .chunking import CHUNKER_VERSION, chunk_markdown
from .embedder import Embedder, EmbeddingError, normalized
from .options import SearchOptions
from .store import IndexStore
from .tokenize import document_terms

if TYPE_CHECKING:
    from .watch import ChangeFeed, WatchTarget

__all__ = ["IndexSync", "SourceFile", "SyncReport", "discover"]

TOKENIZER_VERSION = 4  # 3: the alias table is filled; 4: with label terms
_DAY_IN_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MAX_FILE_BYTES = 8 * 1024 * 1024  # a Markdown note larger than this is not a note
# A file changed this close to a scan may change again without its times moving (a clock tick
# is up to 10 ms on Linux, 2 s on FAT): stored with ctime -1, the next scan re-hashes it.
RACY_NS = 2_000_000_000
_RACY = -1


class SourceFile(NamedTuple):  # a tuple: thousands are made per scan
    rel: str  # workspace-relative, "/"-separated
    path: str
    source: str  # "memory" | "sessions"
    size: int = -1  # from the directory scan; -1: not known yet
    mtime_ns: int = -1
    links: int = 1  # hard links: more than one, and a change feed cannot vouch for the file
    ctime_ns: int = -1


@dataclass
class SyncReport:
    indexed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    embedded: int = 0
    embedding_error: str | None = None
    embedding_failure: EmbeddingError | None = None  # the same, for a reader in either language
    rebuilt: bool = False


def _markdown_files(root: str, prefix: str, source: str = "memory") -> list[SourceFile]:
    """A :class:`SourceFile` for each ``root/**/*.md``, symlinks ignored (files and folders).

    Strings and the scan's own stat, not Path objects: this runs before every search, over
    thousands of files."""
    found: list[SourceFile] = []
    stack = [(root, prefix)]
    while stack:
        folder, rel_folder = stack.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name.endswith(".md"):
                if entry.is_file(follow_symlinks=False):
                    try:
                        stat = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    found.append(
                        SourceFile(
                            rel_folder + name,
                            entry.path,
                            source,
                            stat.st_size,
                            stat.st_mtime_ns,
                            stat.st_nlink,
                            stat.st_ctime_ns,
                        )
                    )
            elif not name.startswith(".") and entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, rel_folder + name + "/"))
    return found


def _rel(workspace: Path, path: Path) -> str | None:
    try:
        return path.relative_to(workspace).as_posix()
    except ValueError:
        return None


def _stat_file(rel: str, path: Path, source: str) -> SourceFile | None:
    try:
        stat = path.lstat()
    except OSError:
        return None
    if not os.path.isfile(path) or path.is_symlink():
        return None
    return SourceFile(rel, str(path), source, stat.st_size, stat.st_mtime_ns, stat.st_nlink, stat.st_ctime_ns)


def discover(workspace: Path, options: SearchOptions) -> dict[str, SourceFile]:
    """Every file the index covers, by workspace-relative path (extra paths outside the workspace
    keep their absolute path as the key), each with its size and mtime."""
    files: dict[str, SourceFile] = {}
    memory_md = _stat_file("MEMORY.md", workspace / "MEMORY.md", "memory")
    if memory_md:
        files["MEMORY.md"] = memory_md
    for found in _markdown_files(str(workspace / "memory"), "memory/"):
        files[found.rel] = found
    for extra in options.extra_paths:
        if extra.is_symlink():
            continue
        if extra.is_dir():
            for found in _markdown_files(str(extra), ""):
                rel = _rel(workspace, Path(found.path)) or Path(found.path).as_posix()
                files.setdefault(rel, found._replace(rel=rel))
        elif extra.suffix == ".md":
            rel = _rel(workspace, extra) or extra.as_posix()
            item = _stat_file(rel, extra, "memory")
            if item:
                files.setdefault(rel, item)
    if "sessions" in options.sources and options.sessions_dir is not None:
        from .sessions import session_files

        for rel, transcript in session_files(options.sessions_dir):
            item = _stat_file(rel, transcript, "sessions")
            if item:
                files[rel] = item
    return files


def _folders(root: str) -> list[str]:
    """``root`` and every folder under it that a scan enters (hidden and symlinked ones are not)."""
    folders, stack = [], [root]
    while stack:
        folder = stack.pop()
        folders.append(folder)
        try:
            with os.scandir(folder) as scan:
                stack.extend(
                    e.path for e in scan if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)
                )
        except OSError:
            continue
    return folders


def watch_targets(workspace: Path, options: SearchOptions) -> list[WatchTarget]:
    """The folders whose entries :func:`discover` reads, and for each the names that matter.

    A source that does not exist yet is covered by a watch on its parent (which reports its
    creation); the workspace itself always is, for ``MEMORY.md`` and ``memory/``."""
    from .watch import WatchTarget

    targets = [WatchTarget(str(workspace), names=frozenset({"memory"}))]
    memory = workspace / "memory"
    if memory.is_dir():
        targets += [WatchTarget(folder) for folder in _folders(str(memory))]
    for extra in options.extra_paths:
        targets.append(WatchTarget(str(extra.parent), names=frozenset({extra.name})))
        if extra.is_dir() and not extra.is_symlink():
            targets += [WatchTarget(folder) for folder in _folders(str(extra))]
    if "sessions" in options.sources and options.sessions_dir is not None:
        sessions = options.sessions_dir
        targets.append(WatchTarget(str(sessions.parent), names=frozenset({sessions.name})))
        if sessions.is_dir():
            targets.append(WatchTarget(str(sessions), suffixes=(".jsonl",)))
    return targets


def file_day(rel: str) -> str | None:
    """The date a file is about, from its name; None (never decays) for MEMORY.md and undated files."""
    if rel == "MEMORY.md":
        return None
    match = _DAY_IN_NAME.search(rel.rsplit("/", 1)[-1])
    return match.group(0) if match else None


def vector_blob(vector: list[float]) -> bytes:
    return array.array("f", vector).tobytes()


def blob_vector(blob: bytes) -> array.array[float]:
    values = array.array("f")
    values.frombytes(blob)
    return values


class IndexSync:
    """Brings one :class:`IndexStore` up to date with the workspace."""

    def __init__(self, store: IndexStore, workspace: Path, options: SearchOptions) -> None:
        self.store = store
        self.workspace = workspace
        self.options = options
        # rel → (size, mtime_ns, ctime_ns, hash), as the index holds it (ctime -1: racy, re-hash)
        self._known: dict[str, tuple[int, int, int, str]] | None = None
        self._generation: str | None = None  # of the index when _known was last in step with it
        self._full_scans = 0
        self._feed: ChangeFeed | None = None  # armed before the last full scan, which it then vouches for
        self._linked: list[SourceFile] = []  # files the feed cannot vouch for: stat on every sync

    @property
    def signature(self) -> str:
        o = self.options
        return json.dumps(
            {
                "chunker": CHUNKER_VERSION,
                "tokenizer": TOKENIZER_VERSION,
                "segmenter": o.segmenter,
                "tokens": o.chunk_tokens,
                "overlap": o.chunk_overlap,
            },
            sort_keys=True,
        )

    def ensure_signature(self, embedder: Embedder | None) -> bool:
        """Empty the index when chunking or the embeddings provider/model changed; True if it did."""
        embedding = f"{embedder.provider}/{embedder.model}" if embedder else "none"
        if (
            self.store.get_meta("signature") == self.signature
            and self.store.get_meta("embedding") == embedding
        ):
            return False
        db = self.store.db
        db.execute("BEGIN IMMEDIATE")
        try:
            self.store.clear_index()
            self.store.set_meta("signature", self.signature)
            self.store.set_meta("embedding", embedding)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._known = None
        return True

    def _load_known(self) -> dict[str, tuple[int, int, int, str]]:
        if self._known is None:
            self._generation = self.store.get_meta("generation")
            rows = self.store.db.execute("SELECT path, size, mtime_ns, ctime_ns, hash FROM files").fetchall()
            self._known = {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}
        return self._known

    def _index_changed_elsewhere(self) -> bool:
        """Another process wrote the index since this one last read or wrote it (a write hook, a
        CLI search with other sources): what this process remembers of it is stale."""
        if self._known is not None and self.store.get_meta("generation") != self._generation:
            self._known = None
            return True
        return False

    def sync(self, embedder: Embedder | None = None, only: list[str] | None = None) -> SyncReport:
        if only is not None:
            # A write hook: it knows nothing of the configured provider, so it never rebuilds; if
            # the index was built with other chunking, the next search does the whole job.
            report = SyncReport()
            if self.store.get_meta("signature") != self.signature:
                return report
        else:
            report = SyncReport(rebuilt=self.ensure_signature(embedder))
        elsewhere = self._index_changed_elsewhere()
        known = self._load_known()
        if only is not None:  # a write hook: just these files (memory/ or MEMORY.md), no full scan
            found = {}
            for rel in only:
                if rel == "MEMORY.md" or (rel.startswith("memory/") and rel.endswith(".md")):
                    item = _stat_file(rel, self.workspace / rel, "memory")
                    if item is not None:
                        found[rel] = item
            gone = [rel for rel in only if rel not in found and rel in known]
        elif self._feed is not None and not (report.rebuilt or elsewhere) and not self._feed.changed():
            # Nothing under the sources changed since the last full scan: only the hard-linked
            # files (a write through another link reports to another folder) need their stat.
            found, gone = {}, []
            for linked in self._linked:
                item = _stat_file(linked.rel, Path(linked.path), linked.source)
                if item is not None:
                    found[linked.rel] = item
                elif linked.rel in known:
                    gone.append(linked.rel)
        else:
            self._arm_feed()  # before the scan: every change from here on is reported
            found = discover(self.workspace, self.options)
            gone = [rel for rel in known if rel not in found]
            self._linked = [item for item in found.values() if item.links > 1]
        changed: list[SourceFile] = []
        for rel, source in found.items():
            state = known.get(rel)
            if state is None or state[:3] != (source.size, source.mtime_ns, source.ctime_ns):
                changed.append(source)
        if changed or gone:
            try:
                complete = self._apply(changed, gone, report)
            except BaseException:
                self._drop_feed()
                raise
            if not complete:
                self._drop_feed()  # a file could not be read: look at everything again next time
        if embedder is not None:
            self._embed_missing(embedder, report)
        return report

    def _arm_feed(self) -> None:
        """From the second full scan of this sync on (a long-lived process: a CLI call scans once
        and never pays for the watches), watch the source folders before scanning them."""
        self._drop_feed()
        self._full_scans += 1
        if self._full_scans >= 2:
            from .watch import ChangeFeed

            try:
                self._feed = ChangeFeed.start(watch_targets(self.workspace, self.options))
            except Exception:  # noqa: BLE001 - a speed-up only: without it, every search scans
                self._feed = None

    def _drop_feed(self) -> None:
        if self._feed is not None:
            self._feed.close()
            self._feed = None

    def close(self) -> None:
        self._drop_feed()

    def _apply(self, changed: list[SourceFile], gone: list[str], report: SyncReport) -> bool:
        """Index ``changed`` and drop ``gone``; False if a changed file could not be read."""
        import hashlib  # only when something changed: a plain search never loads OpenSSL

        known = self._load_known()
        racy_after = time.time_ns() - RACY_NS
        complete = wrote = wrote_files = False
        db = self.store.db
        db.execute("BEGIN IMMEDIATE")
        try:
            complete = True
            for rel in gone:
                self._delete_file(rel)
                known.pop(rel, None)
                report.removed.append(rel)
                wrote = True
            for source in changed:
                size, mtime_ns = source.size, source.mtime_ns
                # Racy: a write in the same clock tick may follow without moving either time, so
                # the file is stored as unseen (re-hashed by the next scan) until it is older.
                ctime_ns = source.ctime_ns if source.ctime_ns < racy_after else _RACY
                try:
                    with open(source.path, "rb") as handle:
                        raw = handle.read(_MAX_FILE_BYTES)
                except OSError:
                    complete = False
                    continue
                digest = hashlib.sha256(raw).hexdigest()
                state = known.get(source.rel)
                if state and state[3] == digest:  # touched, not changed
                    if state[:3] != (size, mtime_ns, ctime_ns):
                        db.execute(
                            "UPDATE files SET size = ?, mtime_ns = ?, ctime_ns = ? WHERE path = ?",
                            (size, mtime_ns, ctime_ns, source.rel),
                        )
                        wrote_files = True
                else:
                    self._delete_file(source.rel)
                    self._index_file(source, raw.decode("utf-8", "replace"))
                    db.execute(
                        "INSERT OR REPLACE INTO files (path, source, size, mtime_ns, ctime_ns, hash, day) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (source.rel, source.source, size, mtime_ns, ctime_ns, digest, file_day(source.rel)),
                    )
                    report.indexed.append(source.rel)
                    wrote = True
                known[source.rel] = (size, mtime_ns, ctime_ns, digest)
            if wrote:
                row = db.execute("SELECT count(*), coalesce(sum(length), 0) FROM chunks").fetchone()
                self.store.set_meta("stats", json.dumps([int(row[0]), int(row[1])]))
            if wrote or wrote_files:
                # Changes with every indexing write: what a long-lived reader's caches are keyed on,
                # and how another process learns that its picture of the files table is stale.
                self._generation = str(int(self.store.get_meta("generation") or 0) + 1)
                self.store.set_meta("generation", self._generation)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            self._known = None
            raise
        return complete

    def _chunk_terms(self, heading: str, text: str) -> Counter[str]:
        """The terms a chunk is indexed under (its text with its heading, the heading twice)."""
        segmenter = self.options.segmenter
        indexed = text if not heading or text.startswith(heading) else heading + "\n" + text
        terms = document_terms(indexed, segmenter)
        if heading:  # the heading names the section: its words count twice
            terms.update(document_terms(heading, segmenter))
        return terms

    def _delete_file(self, rel: str) -> None:
        db = self.store.db
        chunks = db.execute("SELECT id, heading, text FROM chunks WHERE path = ?", (rel,)).fetchall()
        db.executemany(
            "DELETE FROM postings WHERE term = ? AND chunk_id = ?",
            [(term, cid) for cid, heading, text in chunks for term in self._chunk_terms(heading, text)],
        )
        db.execute("DELETE FROM chunks WHERE path = ?", (rel,))
        db.execute("DELETE FROM aliases WHERE path = ?", (rel,))
        db.execute("DELETE FROM files WHERE path = ?", (rel,))

    def _index_file(self, source: SourceFile, text: str) -> None:
        if source.source == "sessions":
            from .sessions import transcript_markdown

            text = transcript_markdown(text)
        db = self.store.db
        day = file_day(source.rel)
        if source.source == "memory":
            from .aliases import label_groups, label_terms  # only when a file is (re)indexed

            segmenter = self.options.segmenter
            db.executemany(  # each label stored as its search terms: nothing to tokenize per query
                "INSERT INTO aliases (path, labels) VALUES (?, ?)",
                [
                    (
                        source.rel,
                        json.dumps([sorted(t) for t in label_terms(group, segmenter)], ensure_ascii=False),
                    )
                    for group in label_groups(text, standing=source.rel == "MEMORY.md")
                ],
            )
        for chunk in chunk_markdown(
            text, max_tokens=self.options.chunk_tokens, overlap_tokens=self.options.chunk_overlap
        ):
            terms = self._chunk_terms(chunk.heading, chunk.text)
            length = sum(terms.values())
            if not length:
                continue
            cursor = db.execute(
                "INSERT INTO chunks (path, source, start_line, end_line, hash, heading, text, length, day) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    source.rel,
                    source.source,
                    chunk.start_line,
                    chunk.end_line,
                    chunk.hash,
                    chunk.heading,
                    chunk.text,
                    length,
                    day,
                ),
            )
            chunk_id = cursor.lastrowid
            db.executemany(
                "INSERT INTO postings (term, chunk_id, tf, dl) VALUES (?, ?, ?, ?)",
                [(term, chunk_id, tf, length) for term, tf in terms.items()],
            )

    def _embed_missing(self, embedder: Embedder, report: SyncReport) -> None:
        db = self.store.db
        rows = db.execute(
            "SELECT c.hash, c.heading, c.text FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM embeddings e "
            "WHERE e.provider = ? AND e.model = ? AND e.hash = c.hash)",
            (embedder.provider, embedder.model),
        ).fetchall()
        if not rows:
            return
        # The heading travels with each piece, as in the lexical index (and as the hash was taken).
        texts = {
            digest: text if not heading or text.startswith(heading) else heading + "\n" + text
            for digest, heading, text in rows
        }
        hashes = list(texts)
        try:
            vectors = embedder.embed([texts[h] for h in hashes], "document")
        except EmbeddingError as exc:
            report.embedding_error = str(exc)
            report.embedding_failure = exc
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany(
                "INSERT OR REPLACE INTO embeddings (provider, model, hash, vector) VALUES (?, ?, ?, ?)",
                [
                    (embedder.provider, embedder.model, h, vector_blob(normalized(v)))
                    for h, v in zip(hashes, vectors, strict=True)
                ],
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        report.embedded = len(hashes)
