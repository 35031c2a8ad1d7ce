"""Static files storage: WhiteNoise's hashed, compressed files, with JavaScript module imports
rewritten to the hashed names, so every file of the table's modules can be cached for ever."""

from collections.abc import Callable
from re import Match
from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage

#: Vendored files whose text is left as it is: Pyodide's scripts (practice, games/practice/finders.py)
#: are not ES modules of ours, and what looks like an import in them is not a file to hash.
VERBATIM_PREFIXES = ("practice/pyodide/",)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    #: A module's hashed name depends on the hashed names of the modules it imports; one pass
    #: settles one more link of an import chain whose modules sit in the same folder, and the
    #: table's modules (static/js/table/, each under 400 lines: docs/style.md) import each other
    #: in chains longer than Django's default of five passes settles.
    max_post_process_passes = 20

    def url_converter(
        self, name: str, hashed_files: Any, template: str | None = None
    ) -> Callable[[Match[str]], str]:
        if name.replace("\\", "/").startswith(VERBATIM_PREFIXES):
            return lambda match: match.group(0)
        converter: Callable[[Match[str]], str] = super().url_converter(name, hashed_files, template)
        return converter
