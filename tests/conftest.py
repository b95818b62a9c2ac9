"""Suite-wide settings: property tests run the same examples on every machine (deterministic CI)."""

import pytest
from hypothesis import settings

settings.register_profile("savenow", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("savenow")


@pytest.fixture(autouse=True)
def _no_real_openclaw_install(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zero-flag setup reads OPENCLAW_STATE_DIR (default ~/.openclaw): never the machine's real install."""
    monkeypatch.delenv("OPENCLAW_STATE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)  # the settings cache: under this HOME too
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
