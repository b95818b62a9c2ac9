"""Plain, already-valid search options: what the engine needs, without pydantic.

:func:`options_from_settings` maps the validated ``search:`` block of :class:`savenow.config.Settings`
onto them; :data:`DEFAULTS` is the same thing when nothing is configured (the CLI's fast start).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..config import Settings

__all__ = [
    "DEFAULT_MIN_SCORE",
    "SearchOptions",
    "options_from_json",
    "options_from_settings",
    "options_to_json",
]

# Lexical scores are the share of the query's idf a chunk matches (0..1); see docs/search.md.
DEFAULT_MIN_SCORE = 0.3


@dataclass(frozen=True)
class SearchOptions:
    """The ``search:`` settings the engine uses, already valid."""

    enabled: bool = True
    sources: tuple[str, ...] = ("memory",)
    extra_paths: tuple[Path, ...] = ()
    provider: str = "none"  # "none" | "openai"
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    batch_size: int = 64
    timeout_s: float = 30.0
    max_retries: int = 2
    send_input_type: bool = False
    vector_weight: float = 0.7
    text_weight: float = 0.3
    candidate_multiplier: int = 4
    min_score: float = DEFAULT_MIN_SCORE
    half_life_days: float = 30.0
    # An old note keeps this share of its score: decay breaks near-ties, never outweighs a clearly
    # better match (a newer note that *replaces* an older one is moved above it by rule, engine._newer_first).
    recency_floor: float = 0.9
    max_results: int = 6
    segmenter: str = "bigram"
    chunk_tokens: int = 400
    chunk_overlap: int = 80
    # 0: every search stats every source file (the CLI: one search per process). A long-lived
    # process (the Telegram bot) may set a few seconds: a file edited outside savenow is then seen
    # at most this late, while savenow's own writes are indexed at once by the write hook.
    rescan_interval_s: float = 0.0
    sessions_dir: Path | None = None
    timezone: str | None = None

    @property
    def weights(self) -> tuple[float, float]:
        """(vector, text), normalized to sum to 1."""
        total = self.vector_weight + self.text_weight
        return (self.vector_weight / total, self.text_weight / total) if total > 0 else (0.0, 1.0)


def options_from_settings(settings: Settings) -> SearchOptions:
    s = settings.search
    remote = s.remote
    base_url = remote.base_url or (settings.llm.base_url if s.provider == "openai" else None)
    # llm.api_key goes only to llm.base_url: never hand one host's key to another host.
    same_host_as_llm = base_url is not None and base_url == settings.llm.base_url
    key = remote.api_key or (settings.llm.api_key if s.provider == "openai" and same_host_as_llm else None)
    extra = tuple(p if p.is_absolute() else settings.workspace / p for p in s.extra_paths)
    return SearchOptions(
        enabled=s.enabled,
        sources=tuple(s.sources),
        extra_paths=extra,
        provider=s.provider,
        model=s.model,
        base_url=base_url,
        api_key=key.get_secret_value() if key else None,
        headers=dict(remote.headers),
        batch_size=remote.batch_size,
        timeout_s=remote.timeout_s,
        max_retries=remote.max_retries,
        send_input_type=remote.send_input_type,
        vector_weight=s.weights.vector,
        text_weight=s.weights.text,
        candidate_multiplier=s.candidate_multiplier,
        min_score=s.min_score,
        half_life_days=s.half_life_days,
        max_results=s.max_results,
        segmenter=s.segmenter,
        rescan_interval_s=s.rescan_interval_s,
        sessions_dir=settings.sessions_dir,
        timezone=settings.timezone,
    )


def options_to_json(options: SearchOptions) -> dict[str, Any] | None:
    """The options as JSON for the settings cache; None when they hold a secret (a key, headers, or
    credentials in the base URL: ``https://user:key@host/``, ``?api-key=…``)."""
    if options.api_key or options.headers or _url_may_hold_a_secret(options.base_url):
        return None
    data: dict[str, Any] = {f.name: getattr(options, f.name) for f in fields(options)}
    data["sources"] = list(options.sources)
    data["extra_paths"] = [str(path) for path in options.extra_paths]
    data["sessions_dir"] = None if options.sessions_dir is None else str(options.sessions_dir)
    return data


def _url_may_hold_a_secret(url: str | None) -> bool:
    if not url:
        return False
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return bool(parts.username or parts.password or parts.query or parts.fragment)


def options_from_json(data: dict[str, Any]) -> SearchOptions:
    values = dict(data)
    values["sources"] = tuple(values["sources"])
    values["extra_paths"] = tuple(Path(path) for path in values["extra_paths"])
    values["sessions_dir"] = None if values["sessions_dir"] is None else Path(values["sessions_dir"])
    return SearchOptions(**values)
