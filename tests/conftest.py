"""Shared test set-up: hypothesis profiles that suit a 2-core CI machine, and the
settings fixtures many test files ask for (``english``, ``quick_passwords``)."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=50)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Run the browser tests last, after pytest-randomly's shuffle.

    Playwright's sync API keeps an asyncio loop running on the main thread for
    the session's shared browser; tests that start their own loop
    (``asyncio.run``) must come before it.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture
def english(settings):
    """English texts (the French pass is tested apart); a test file that reads
    English asks for it with ``pytestmark = pytest.mark.usefixtures("english")``."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def quick_passwords(settings):
    """A quick password hasher, for the tests that sign players up and in."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
