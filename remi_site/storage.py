"""Static files storage: WhiteNoise's hashed, compressed files, with JavaScript module imports
rewritten to the hashed names, so every file of the table's modules can be cached for ever."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
