"""The application's version: shown in the footer and /readyz, sent to Sentry as the release.
pyproject.toml's [project] version says the same (tests/core/test_version.py)."""
__version__ = "0.6.0"
