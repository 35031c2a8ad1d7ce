"""The rule sets. Importing this package registers them with :func:`games.engine.rules.variant`.

Every module (or subpackage) here is imported, so a new rule set only needs its own file.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
