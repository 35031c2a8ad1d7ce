import pytest
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _unhashed_static_files(settings: Settings) -> None:
    # The manifest storage of production needs `collectstatic` to have run; these tests should
    # not depend on that, so they render plain /static/... URLs.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
