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

import json
import os
import re
import stat
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..disk_cache import RACY_NS
from ..text.script import table_digest
from .chunking import CHUNKER_VERSION, chunk_markdown
from .embedder import Embedder, EmbeddingError, normalized
from .options import SearchOptions
from .store import IndexStore
from .tokenize import document_terms

if TYPE_CHECKING:
    import array

    from .watch import ChangeFeed, WatchTarget

__all__ = ["IndexSync", "Scan", "SourceFile", "SyncReport", "scan_sources"]

TOKENIZER_VERSION = (
    6  # 3: the alias table is filled; 4: with label terms; 5: goes/went → go; 6: Traditional folded
)
_DAY_IN_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MAX_FILE_BYTES = 8 * 1024 * 1024  # a Markdown note larger than this is not a note
# A file changed within RACY_NS of a scan may change again without its times moving (a clock
# tick is up to 10 ms on Linux, 2 s on FAT): stored with ctime -1, the next scan re-hashes it.
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
    """What one sync did."""

    indexed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    embedded: int = 0
    embedding_error: str | None = None
    embedding_failure: EmbeddingError | None = None  # the same, for a reader in either language
    rebuilt: bool = False


class Scan(NamedTuple):
    """What one pass over the sources found, against the stat each file had when last indexed."""

    present: set[str]  # every source file, by workspace-relative path
    changed: list[SourceFile]  # new, or size/mtime/ctime not as indexed (or racy)
    linked: list[SourceFile]  # more than one hard link: a change feed cannot vouch for these


Known = dict[str, tuple[int, int, int]]  # rel → (size, mtime_ns, ctime_ns) as indexed (ctime -1: racy)


def _scan_markdown(root: str, prefix: str, source: str, known: Known, scan: Scan) -> None:
    """Every ``root/**/*.md`` into ``scan`` (symlinked files and folders ignored; a path already
    present is skipped: the first source to cover a file keeps it).

    This runs before every search in a fresh process, over thousands of files, so it is one tight
    loop: each folder is read once (``scandir`` on a descriptor, so the stat of each entry is an
    ``fstatat`` by name, not a walk of the whole path), the stat is compared with the indexed one
    as a tuple, and a :class:`SourceFile` is made only for a file that changed."""
    try:
        top = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    present, changed, linked = scan
    seen, add, was = present.__contains__, present.add, known.get
    stack = [(top, root, prefix)]
    try:
        while stack:
            fd, folder, rel_folder = stack.pop()
            try:
                with os.scandir(fd) as entries:
                    for entry in entries:
                        name = entry.name
                        if name.endswith(".md"):
                            rel = rel_folder + name
                            if seen(rel) or not entry.is_file(follow_symlinks=False):
                                continue
                            try:
                                st = entry.stat(follow_symlinks=False)
                            except OSError:
                                continue
                            add(rel)
                            state = (st.st_size, st.st_mtime_ns, st.st_ctime_ns)
                            differs = was(rel) != state
                            if differs or st.st_nlink > 1:
                                item = SourceFile(
                                    rel, f"{folder}/{name}", source, *state[:2], st.st_nlink, state[2]
                                )
                                if differs:
                                    changed.append(item)
                                if st.st_nlink > 1:
                                    linked.append(item)
                        elif name[0] != "." and entry.is_dir(follow_symlinks=False):
                            try:
                                sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
                            except OSError:
                                continue
                            stack.append((sub, f"{folder}/{name}", f"{rel_folder}{name}/"))
            except OSError:
                continue
            finally:
                os.close(fd)
    finally:
        for fd, _folder, _rel_folder in stack:  # still open only if the walk stopped early
            os.close(fd)


def _rel(workspace: Path, path: Path) -> str | None:
    try:
        return path.relative_to(workspace).as_posix()
    except ValueError:
        return None


def _stat_file(rel: str, path: Path, source: str) -> SourceFile | None:
    """A regular file (not a symlink), from one ``lstat``."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return SourceFile(rel, str(path), source, st.st_size, st.st_mtime_ns, st.st_nlink, st.st_ctime_ns)


def _add_file(item: SourceFile | None, known: Known, scan: Scan) -> None:
    if item is None or item.rel in scan.present:
        return
    scan.present.add(item.rel)
    if item.links > 1:
        scan.linked.append(item)
    if known.get(item.rel) != (item.size, item.mtime_ns, item.ctime_ns):
        scan.changed.append(item)


def scan_sources(workspace: Path, options: SearchOptions, known: Known) -> Scan:
    """Every file the index covers (by workspace-relative path; extra paths outside the workspace
    keep their absolute path as the key), and which of them differ from ``known``."""
    scan = Scan(set(), [], [])
    _add_file(_stat_file("MEMORY.md", workspace / "MEMORY.md", "memory"), known, scan)
    _scan_markdown(str(workspace / "memory"), "memory/", "memory", known, scan)
    for extra in options.extra_paths:
        if extra.is_symlink():
            continue
        if extra.is_dir():
            rel = _rel(workspace, extra)
            prefix = extra.as_posix() + "/" if rel is None else ("" if rel == "." else rel + "/")
            _scan_markdown(str(extra), prefix, "memory", known, scan)
        elif extra.suffix == ".md":
            _add_file(_stat_file(_rel(workspace, extra) or extra.as_posix(), extra, "memory"), known, scan)
    if "sessions" in options.sources and options.sessions_dir is not None:
        from .sessions import session_files

        for rel, transcript in session_files(options.sessions_dir):
            _add_file(_stat_file(rel, transcript, "sessions"), known, scan)
    return scan


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
    """The folders whose entries :func:`scan_sources` reads, and for each the names that matter.

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
    import array  # only with embeddings: a lexical search never loads the extension module

    return array.array("f", vector).tobytes()


def blob_vector(blob: bytes) -> array.array[float]:
    import array

    values = array.array("f")
    values.frombytes(blob)
    return values


class IndexSync:
    """Brings one :class:`IndexStore` up to date with the workspace."""

    def __init__(self, store: IndexStore, workspace: Path, options: SearchOptions) -> None:
        self.store = store
        self.workspace = workspace
        self.options = options
        # rel → (size, mtime_ns, ctime_ns), as the index holds it (ctime -1: racy, re-hash)
        self._known: Known | None = None
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
                "script_fold": table_digest(),  # the tokens of Traditional text depend on the table
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

    def _load_known(self) -> Known:
        """The indexed stat of every file, one query (hashes are read only for files that changed)."""
        if self._known is None:
            self._generation = self.store.get_meta("generation")
            rows = self.store.db.execute("SELECT path, size, mtime_ns, ctime_ns FROM files")
            self._known = {path: (size, mtime_ns, ctime_ns) for path, size, mtime_ns, ctime_ns in rows}
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
            scan = Scan(set(), [], [])
            for rel in only:
                if rel == "MEMORY.md" or (rel.startswith("memory/") and rel.endswith(".md")):
                    _add_file(_stat_file(rel, self.workspace / rel, "memory"), known, scan)
            changed = scan.changed
            gone = [rel for rel in only if rel not in scan.present and rel in known]
        elif self._feed is not None and not (report.rebuilt or elsewhere) and not self._feed.changed():
            # Nothing under the sources changed since the last full scan: only the hard-linked
            # files (a write through another link reports to another folder) need their stat.
            scan = Scan(set(), [], [])
            gone = []
            for linked in self._linked:
                item = _stat_file(linked.rel, Path(linked.path), linked.source)
                if item is not None:
                    _add_file(item, known, scan)
                elif linked.rel in known:
                    gone.append(linked.rel)
            changed = scan.changed
        else:
            self._arm_feed()  # before the scan: every change from here on is reported
            scan = scan_sources(self.workspace, self.options, known)
            changed = scan.changed
            present = scan.present
            gone = [rel for rel in known if rel not in present] if known.keys() - present else []
            self._linked = scan.linked
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
        indexed = self._indexed_hashes([source.rel for source in changed if source.rel in known])
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
                if indexed.get(source.rel) == digest:  # touched, not changed
                    if known.get(source.rel) != (size, mtime_ns, ctime_ns):
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
                known[source.rel] = (size, mtime_ns, ctime_ns)
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

    def _indexed_hashes(self, rels: list[str]) -> dict[str, str]:
        """The content hash the index holds for each of ``rels``."""
        hashes: dict[str, str] = {}
        for start in range(0, len(rels), 500):  # well under SQLite's limit on bound parameters
            batch = rels[start : start + 500]
            sql = f"SELECT path, hash FROM files WHERE path IN ({','.join('?' * len(batch))})"
            hashes.update(self.store.db.execute(sql, batch))
        return hashes

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
