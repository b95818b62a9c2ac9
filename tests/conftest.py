"""Suite-wide settings: property tests run the same examples on every machine (deterministic CI)."""

from hypothesis import settings

settings.register_profile("savenow", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("savenow")
