"""What every test of the suite gets, whatever its folder: a pytest plugin (``-p tests.default_language``
in pyproject.toml), not a ``tests/conftest.py``, which the doctest collection would import under the
same module name as the folders' own conftest files."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Every test starts, and leaves, in the site's default language.

    A request answered in Polish or Romanian activates that language in the thread that served
    it (Django's ``LocaleMiddleware``, and ``accounts.middleware``, activate one per request and
    never reset it), and the test client serves requests in the test's own thread: the next test
    on the same worker would read Polish labels (seen: ``Remi (wyłożenie 45)`` in a ranked test
    after a puzzle test's Polish request).
    """
    translation.deactivate()
    yield
    translation.deactivate()
