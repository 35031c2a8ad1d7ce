"""How a line that people type is cleaned before others read it: a chat line, a room's name."""

from __future__ import annotations

import re
import unicodedata

#: Control characters and the invisible marks that turn text around or hide it.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]")


#: The most combining marks (accents, and the like) one character may carry in a chat line.
#: Polish and Romanian letters carry one, composed into a single character by NFC; Vietnamese two;
#: scripts that stack marks rarely more than three. A letter under dozens of them (text
#: written to spill over the lines around it) is refused: ``chat_too_many_marks``.
MAX_MARKS = 4


def chat_clean(text: str) -> str:
    """The line as stored: composed (NFC), unprintable characters become spaces, spaces are
    collapsed, trimmed.

    >>> chat_clean("  hi\\n\\tthere \\u202e!  ")
    'hi there !'
    >>> chat_clean("s\\u0326i") == "\\u0219i"  # ș typed as s and a comma below
    True
    """
    return " ".join(_UNPRINTABLE.sub(" ", unicodedata.normalize("NFC", text)).split())


def marks_run(text: str) -> int:
    """The longest run of combining marks (non-spacing or enclosing) in ``text``: how many stand
    on one character.

    >>> marks_run("zażółć"), marks_run("vi\\u1ec7t"), marks_run("a" + "\\u0301" * 200)
    (0, 0, 200)
    """
    longest = run = 0
    for character in text:
        if unicodedata.category(character) in ("Mn", "Me"):
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    return longest
