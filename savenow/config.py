"""Settings (DESIGN §11): command-line flags > ``SAVENOW_`` environment > YAML file > defaults.

A bad value raises :class:`ConfigError` naming the key and the source it came from.
"""

from __future__ import annotations

import os
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from .errors import ConfigError
from .messages import Text

if TYPE_CHECKING:
    from .openclaw_setup import OpenClawSetup

CONFIG_ENV = "SAVENOW_CONFIG"
DEFAULT_CONFIG_PATH = Path("~/.config/savenow/config.yaml")


class LLMSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    model: str | None = None
    api_key: SecretStr | None = None  # never logged: SecretStr prints as '**********'
    timeout_s: float = Field(60, gt=0, le=600)  # TOTAL per request (connect + whole answer), not per read
    max_prompt_tokens: int = Field(12000, ge=1000, le=1_000_000)
    max_retries: int = Field(3, ge=0, le=10)
    max_response_bytes: int = Field(
        8 * 1024 * 1024, ge=64 * 1024, le=256 * 1024 * 1024
    )  # larger answers refused
    fallback_to_heuristic: bool = False  # off by default (issue 6): a failure is reported, not hidden

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.api_key and self.api_key.get_secret_value())


class TelegramSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: SecretStr | None = None
    api_base_url: str | None = None
    # Nobody is trusted by default (DESIGN §3.1): the users who may use savenow, in their own chats...
    allowed_user_ids: list[int] = Field(default_factory=list)
    allowed_chat_ids: list[int] = Field(default_factory=list)  # empty = any chat an allowed user writes in
    # ...and the admins, who also may name any session key, use the main session, press others' buttons.
    admin_user_ids: list[int] = Field(default_factory=list)
    language: Literal["auto", "en", "zh"] = "auto"
    idle_gap_minutes: int = Field(24 * 60, ge=1)  # recorder: a new session id after this much silence
    cooldown_seconds: float = Field(5, ge=0, le=3600)  # per user, between two extractions
    webhook_url: str | None = None  # set: receive updates by webhook instead of polling
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = Field(8443, ge=1, le=65535)
    webhook_secret_token: SecretStr | None = None  # None: a random one per start


class CompactionFlushSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    mode: Literal["auto"] = "auto"  # auto: the flush writes its notes directly, journaled (undo)


class CompactionSettings(BaseModel):
    """Session compaction and its pre-compaction memory flush (DESIGN §13)."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    preserve_recent: int = Field(4, ge=1, le=1000)
    max_tokens: int = Field(80_000, ge=100, le=10_000_000)
    summary_max_tokens: int = Field(2_000, ge=50, le=100_000)
    # The flush runs ahead of compaction once tokens pass
    # max_tokens - reserve_tokens_floor - soft_threshold_tokens (OpenClaw's formula, max_tokens as the window).
    reserve_tokens_floor: int = Field(20_000, ge=0)
    soft_threshold_tokens: int = Field(4_000, ge=0)
    # auto: the LLM summary when llm.base_url and a key are set (like `extractor: auto`), else offline;
    # an LLM failure always falls back to the offline summary, and the result says so.
    summarizer: Literal["auto", "offline", "llm"] = "auto"
    flush: CompactionFlushSettings = Field(default_factory=CompactionFlushSettings)


class ObjectsSettings(BaseModel):
    """Structured memory objects (DESIGN §14)."""

    model_config = ConfigDict(extra="forbid")

    # Post proposed objects after a topic's session has been idle this long; None = off (the default).
    idle_proposal_minutes: int | None = Field(None, ge=5, le=7 * 24 * 60)
    # auto: the LLM extractor when llm.base_url and a key are set (like `extractor: auto`), else offline.
    extractor: Literal["auto", "heuristic", "llm"] = "auto"


class SearchRemoteSettings(BaseModel):
    """An OpenAI-compatible /v1/embeddings endpoint; unset fields fall back to ``llm:``."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    api_key: SecretStr | None = None
    headers: dict[str, str] = Field(default_factory=dict)  # e.g. an org header; never logged
    batch_size: int = Field(64, ge=1, le=2048)
    timeout_s: float = Field(30, gt=0, le=600)
    max_retries: int = Field(2, ge=0, le=10)
    send_input_type: bool = False  # "input_type": query|passage, for e5/bge-style servers


class SearchWeights(BaseModel):
    model_config = ConfigDict(extra="forbid")

    vector: float = Field(0.7, ge=0, le=1)
    text: float = Field(0.3, ge=0, le=1)

    @model_validator(mode="after")
    def _not_both_zero(self) -> SearchWeights:
        if self.vector + self.text <= 0:
            raise ValueError("search.weights: vector and text cannot both be 0")
        return self


class SearchSettings(BaseModel):
    """Memory search (DESIGN §12); see docs/search.md."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    sources: list[Literal["memory", "sessions"]] = Field(default_factory=lambda: ["memory"], min_length=1)  # type: ignore[arg-type]
    extra_paths: list[Path] = Field(default_factory=list)
    provider: Literal["none", "openai"] = "none"
    model: str | None = None
    remote: SearchRemoteSettings = Field(default_factory=SearchRemoteSettings)
    weights: SearchWeights = Field(default_factory=SearchWeights)
    candidate_multiplier: int = Field(4, ge=1, le=50)
    min_score: float = Field(0.3, ge=0, le=1)
    half_life_days: float = Field(30, gt=0, le=36500)
    max_results: int = Field(6, ge=1, le=100)
    segmenter: Literal["bigram", "jieba"] = "bigram"
    rescan_interval_s: float = Field(0, ge=0, le=3600)  # long-lived processes: space the stat scan out

    @field_validator("extra_paths", mode="after")
    @classmethod
    def _expand_paths(cls, value: list[Path]) -> list[Path]:
        return [path.expanduser() for path in value]

    @model_validator(mode="after")
    def _model_for_provider(self) -> SearchSettings:
        if self.provider == "openai" and not self.model:
            self.model = "text-embedding-3-small"
        return self


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="SAVENOW_",
        env_nested_delimiter="__",
        extra="forbid",
        validate_default=True,
    )

    workspace: Path = Path("~/.openclaw/workspace")
    sessions_dir: Path | None = None  # None: ~/.openclaw/agents/<agent_id>/sessions
    recorder_dir: Path | None = None
    agent_id: str = Field("main", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    timezone: str | None = None
    preview_ttl_minutes: int = Field(30, ge=1, le=24 * 60)
    transcript_limit: int = Field(150, ge=120, le=180)
    extractor: Literal["auto", "heuristic", "llm"] = "auto"
    llm: LLMSettings = Field(default_factory=LLMSettings)
    telegram: TelegramSettings = Field(default_factory=TelegramSettings)
    compaction: CompactionSettings = Field(default_factory=CompactionSettings)
    objects: ObjectsSettings = Field(default_factory=ObjectsSettings)
    search: SearchSettings = Field(default_factory=SearchSettings)

    @field_validator("workspace", "sessions_dir", "recorder_dir", mode="after")
    @classmethod
    def _expand(cls, value: Path | None) -> Path | None:
        return value.expanduser() if value is not None else None

    _openclaw: Any = PrivateAttr(default=None)  # OpenClawSetup: what the OpenClaw install supplied, and why

    @model_validator(mode="after")
    def _default_sessions_dir(self) -> Settings:
        # Unset workspace / timezone / sessions_dir come from the OpenClaw install (OPENCLAW_STATE_DIR,
        # openclaw.json); each agent's sessions live under its own folder, so they follow agent_id.
        from .openclaw_setup import openclaw_defaults

        found = openclaw_defaults(set(self.model_fields_set), self.agent_id)
        if found.workspace is not None:
            self.workspace = found.workspace
        if found.timezone is not None:
            self.timezone = found.timezone
        if found.sessions_dir is not None:
            self.sessions_dir = found.sessions_dir
        self._openclaw = found.setup
        return self

    @property
    def openclaw(self) -> OpenClawSetup:
        return self._openclaw

    @property
    def state_dir(self) -> Path:
        """savenow's own state (locks, journal, pending): never under memory/ (DESIGN §8)."""
        return self.workspace / ".savenow"

    @property
    def effective_recorder_dir(self) -> Path:
        return self.recorder_dir or self.state_dir / "sessions"

    @property
    def memory_dir(self) -> Path:
        return self.workspace / "memory"

    @property
    def secret_values(self) -> list[str]:
        """The configured secrets (LLM key, bot token): redacted wherever text is written."""
        secrets = (self.llm.api_key, self.telegram.token, self.search.remote.api_key)
        return [value.get_secret_value() for value in secrets if value and value.get_secret_value()]

    @property
    def use_llm(self) -> bool:
        return self.extractor == "llm" or (self.extractor == "auto" and self.llm.configured)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Precedence, highest first: flags (init), environment, the YAML file (DESIGN §11).
        return (init_settings, env_settings, _YamlSource(settings_cls, _yaml_data.get() or {}))


class _YamlSource(PydanticBaseSettingsSource):
    """The YAML file's values, handed in by :func:`load_settings` through a context variable."""

    def __init__(self, settings_cls: type[BaseSettings], data: dict[str, Any]) -> None:
        super().__init__(settings_cls)
        self._data = data

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return self._data.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(self._data)


_yaml_data: ContextVar[dict[str, Any] | None] = ContextVar("savenow_yaml_data", default=None)


def _read_yaml(path: Path) -> dict[str, Any]:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise ConfigError(Text("config.cannot_read", path=path, reason=exc.strerror)) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(Text("config.not_utf8", path=path)) from exc
    except (yaml.YAMLError, RecursionError) as exc:
        detail = " ".join(str(exc).split())[:200]  # PyYAML's message spans lines: one line on stderr
        raise ConfigError(Text("config.bad_yaml", path=path, reason=detail)) from exc
    if not isinstance(data, dict):
        raise ConfigError(Text("config.not_mapping", path=path))
    return data


def _config_path(explicit: str | os.PathLike[str] | None) -> Path | None:
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigError(Text("config.not_found", path=path))
        return path
    if os.environ.get(CONFIG_ENV):
        return _config_path(os.environ[CONFIG_ENV])
    default = DEFAULT_CONFIG_PATH.expanduser()
    return default if default.is_file() else None


def _source_of(
    loc: tuple[Any, ...], flags: dict[str, Any], yaml_data: dict[str, Any], yaml_path: Path | None
) -> Text:
    def has(data: dict[str, Any]) -> bool:
        node: Any = data
        for part in loc:
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
        return True

    if has(flags):
        return Text("config.source.flag")
    env_name = "SAVENOW_" + "__".join(str(p).upper() for p in loc)
    if any(k.upper() == env_name for k in os.environ):
        return Text("config.source.env", name=env_name)
    if has(yaml_data):
        return Text("config.source.file", path=yaml_path)
    return Text("config.source.default")


def load_settings(config_file: str | os.PathLike[str] | None = None, **flags: Any) -> Settings:
    """Build the settings from every source; ``flags`` holds the command line's values (None = unset)."""
    flags = {k: v for k, v in flags.items() if v is not None}
    yaml_path = _config_path(config_file)
    yaml_data = _read_yaml(yaml_path) if yaml_path else {}
    token = _yaml_data.set(yaml_data)
    try:
        return Settings(**flags)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(error.get("loc", ()))
        key = ".".join(str(p) for p in loc) or "(root)"
        source = _source_of(loc, flags, yaml_data, yaml_path)
        message = error.get("msg", "invalid value")
        raise ConfigError(Text("config.bad_value", key=key, source=source, message=message)) from exc
    finally:
        _yaml_data.reset(token)


# The settings flags every command line shares (``savenow …`` and ``savenow bot``), by attribute name.
SETTINGS_FLAGS = ("workspace", "sessions_dir", "recorder_dir", "timezone", "extractor", "transcript_limit")


def load_settings_from_args(args: Any) -> Settings:
    """:func:`load_settings` from a parsed command line (``--config`` and :data:`SETTINGS_FLAGS`; absent = unset)."""
    flags = {name: getattr(args, name, None) for name in SETTINGS_FLAGS}
    return load_settings(getattr(args, "config", None), **flags)
