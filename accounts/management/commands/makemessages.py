"""``makemessages`` that also finds the scripts' own helpers: t(), tn() and pt() of static/js/i18n.js.

Usage (needs GNU gettext's xgettext and msgmerge, which only translators need; docs/i18n.md):
``python manage.py makemessages -l pl -l ro --ignore=.venv --ignore=staticfiles`` and the same with
``-d djangojs``.
"""

from typing import Any

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("domain") == "djangojs":
            self.xgettext_options = [
                *makemessages.Command.xgettext_options,
                "--keyword=t",
                "--keyword=tn:1,2",
                "--keyword=pt:1c,2",
            ]
        super().handle(*args, **options)
