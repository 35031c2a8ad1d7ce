"""The static files app, with what only the type check reads left out of ``collectstatic``:
``static/js/tsconfig*.json`` and the shared shapes ``static/js/types/*.d.ts`` (docs/style.md,
"The browser's JavaScript"). They sit beside the modules they check, and are never served."""

from __future__ import annotations

from django.contrib.staticfiles.apps import StaticFilesConfig


class StaticFiles(StaticFilesConfig):
    ignore_patterns = [*StaticFilesConfig.ignore_patterns, "*.d.ts", "tsconfig*.json"]  # noqa: RUF012 (as Django declares it)
