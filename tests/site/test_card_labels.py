"""Card labels on the server's pages (games/shared/card_labels.py)."""

import doctest

from games.shared import card_labels


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(card_labels)
    assert (result.attempted, result.failed) == (3, 0)
