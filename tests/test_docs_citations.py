"""Every citation in the repository leads somewhere inside it (issue 17).

* Every rule id cited in a tracked file (code, tests and their names, templates, static files,
  translations, docs), ``R51-38``, ``RMI-Q24``, ``GIN-12..14``, ``R40-13/Q5``, is defined in
  ``docs/rules/`` (a bold ``**R51-38**``).
* Every ``docs/…`` path cited exists, and so does every relative link of a Markdown file; a
  section cited by its title (``docs/operations.md, "Load test"``, ``README "The table"``) is a
  heading of that file.
* No tracked file sends the reader outside the repository to the shared folder the rules were
  first written in.

Nothing here needs Django or a database.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
PREFIXES = ("R51", "RMI", "R40", "R500", "GIN", "OKL", "K108")
_PREFIX = "|".join(PREFIXES)
#: One number of an id: ``38``, ``Q9``, ``EX1``, ``DX8``, ``UI-7``, ``NET-3``.
_NUMBER = r"(?:UI-|NET-)?(?:EX|DX|Q)?\d+"
#: An id as cited: a prefix, a number, then more numbers after ``/`` (each) or ``..`` (a range).
CITATION = re.compile(rf"\b({_PREFIX})-({_NUMBER}(?:(?:/|\.\.)(?:{_NUMBER}))*)(?![\w-])")
#: An id as defined in docs/rules: in bold, at the start of a rule, an example or a decision.
DEFINITION = re.compile(rf"\*\*((?:{_PREFIX})-{_NUMBER})(?=[\s*])")
#: Test names carry ids in lower case: ``test_r51_38_q9_…``, ``test_k108_18_and_q4_…``.
TEST_NAME = re.compile(rf"\bdef (test_({_PREFIX.lower()})_\w+)")
DOCS_PATH = re.compile(r"(?<![\w/.])docs/[\w./-]*")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
#: A section cited by its title: ``docs/x.md, "Title"``, ``README "Title"``, ``[x.md](x.md), "Title"``.
SECTION = re.compile(
    r"(?:\[[^\]]+\]\((?P<link>[\w./-]+\.md)\)|(?<![\w/.])(?P<path>README(?:\.md)?|docs/[\w./-]+\.md))"
    r"`?,? \"(?P<title>[^\"\n]{2,80})\""
)
OUTSIDE = "../" + "shared/"


@cache
def tracked_files() -> tuple[Path, ...]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    return tuple(ROOT / name for name in out.split("\0") if name)


@cache
def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary file (compiled translations, images)."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


def text_files() -> Iterator[tuple[Path, str]]:
    """Every tracked text file but this one, whose examples of citations lead nowhere on purpose."""
    for path in tracked_files():
        if path == Path(__file__).resolve():
            continue
        text = text_of(path)
        if text is not None:
            yield path, text


@cache
def defined_ids() -> frozenset[str]:
    ids: set[str] = set()
    for path in sorted(RULES.glob("*.md")):
        ids.update(DEFINITION.findall(path.read_text(encoding="utf-8")))
    return frozenset(ids)


def expand(prefix: str, numbers: str) -> list[str]:
    """``R51`` + ``22/23`` → R51-22, R51-23; ``GIN`` + ``12..14`` → GIN-12, GIN-13, GIN-14.

    A bare number keeps the kind of the number before it (``RMI-UI-1..12``: UI-1 to UI-12), and
    ``R40-13/Q5`` names R40-13 and R40-Q5.
    """
    parts = re.split(r"(/|\.\.)", numbers)
    ids: list[str] = []
    previous_kind = ""
    pending_range: str | None = None
    for part in parts:
        if part == "/":
            continue
        if part == "..":
            pending_range = ids[-1] if ids else None
            continue
        match = re.fullmatch(r"((?:UI-|NET-)?(?:EX|DX|Q)?)(\d+)", part)
        assert match, part
        kind = match.group(1) or previous_kind
        if pending_range is not None:
            start = int(re.sub(r"\D", "", pending_range.rsplit("-", 1)[-1]))
            ids.extend(f"{prefix}-{kind}{n}" for n in range(start + 1, int(match.group(2)) + 1))
            pending_range = None
        else:
            ids.append(f"{prefix}-{kind}{match.group(2)}")
        previous_kind = kind
    return ids


def ids_in_test_name(name: str) -> list[str]:
    """The ids a test's name carries, read up to the first word that is not one."""
    words = name.split("_")[1:]
    prefix = words[0].upper()
    ids = []
    for word in words[1:]:
        if re.fullmatch(r"\d+|q\d+|ex\d+|dx\d+", word):
            ids.append(f"{prefix}-{word.upper()}")
        elif word != "and":
            break
    return ids


def cited_ids() -> dict[str, list[str]]:
    """Every id cited, with where: ``{"R51-38": ["games/engine/turn.py:812", ...]}``."""
    where: dict[str, list[str]] = {}
    for path, text in text_files():
        rel = path.relative_to(ROOT).as_posix()
        for lineno, line in enumerate(text.splitlines(), start=1):
            found = [i for m in CITATION.finditer(line) for i in expand(m.group(1), m.group(2))]
            found += [i for m in TEST_NAME.finditer(line) for i in ids_in_test_name(m.group(1))]
            for rule_id in found:
                where.setdefault(rule_id, []).append(f"{rel}:{lineno}")
    return where


def test_the_rules_define_ids_for_every_variant() -> None:
    ids = defined_ids()
    for prefix in PREFIXES:
        assert f"{prefix}-1" in ids, prefix
        assert any(i.startswith(f"{prefix}-Q") for i in ids), prefix
    assert {"RMI-UI-1", "RMI-NET-1", "R51-EX1", "R51-DX1"} <= ids


def test_each_id_is_defined_once() -> None:
    seen: dict[str, str] = {}
    repeated = []
    for path in sorted(RULES.glob("*.md")):
        for rule_id in DEFINITION.findall(path.read_text(encoding="utf-8")):
            if rule_id in seen:
                repeated.append(f"{rule_id} in {seen[rule_id]} and {path.name}")
            seen[rule_id] = path.name
    assert not repeated


def test_every_cited_rule_id_is_defined_in_docs_rules() -> None:
    cited = cited_ids()
    assert len(cited) > 300  # the engine and its tests cite hundreds of ids
    missing = {rule_id: places[:3] for rule_id, places in cited.items() if rule_id not in defined_ids()}
    assert not missing, f"ids cited but not defined in docs/rules/: {missing}"


@pytest.mark.parametrize(
    ("numbers", "expected"),
    [
        ("38", ["R51-38"]),
        ("22/23", ["R51-22", "R51-23"]),
        ("13/Q5", ["R51-13", "R51-Q5"]),
        ("39..41", ["R51-39", "R51-40", "R51-41"]),
        ("DX1..DX3", ["R51-DX1", "R51-DX2", "R51-DX3"]),
        ("UI-1..3", ["R51-UI-1", "R51-UI-2", "R51-UI-3"]),
        ("Q4/Q14", ["R51-Q4", "R51-Q14"]),
    ],
)
def test_citations_are_read_as_written(numbers: str, expected: list[str]) -> None:
    assert expand("R51", numbers) == expected


def test_test_names_are_read_up_to_the_first_plain_word() -> None:
    assert ids_in_test_name("test_r51_38_q9_reshuffle_keeps_the_top") == ["R51-38", "R51-Q9"]
    assert ids_in_test_name("test_k108_18_and_q4_loose_card_values") == ["K108-18", "K108-Q4"]
    assert ids_in_test_name("test_gin_dx2_knock_with_ten") == ["GIN-DX2"]
    assert ids_in_test_name("test_r51_table_options_defaults") == []


def test_a_citation_that_leads_nowhere_is_caught() -> None:
    assert "R51-999" not in defined_ids()
    assert expand("R51", "999") == ["R51-999"]
    assert CITATION.search("see R51-EXn and RMI-DXn") is None  # "every example": no number


def test_every_docs_path_cited_exists() -> None:
    missing = []
    for path, text in text_files():
        for match in DOCS_PATH.finditer(text):
            cited = match.group(0).rstrip(".,:;)")
            if not (ROOT / cited).exists():
                missing.append(f"{path.relative_to(ROOT)}: {cited}")
    assert not missing


def test_every_relative_link_of_a_markdown_file_exists() -> None:
    missing = []
    for path, text in text_files():
        if path.suffix != ".md":
            continue
        for match in MARKDOWN_LINK.finditer(text):
            target = match.group(1).split("#", 1)[0]
            if not target or re.match(r"^[a-z]+:", target):
                continue
            if not (path.parent / target).exists():
                missing.append(f"{path.relative_to(ROOT)}: {match.group(1)}")
    assert not missing


def test_every_section_cited_by_its_title_is_a_heading_of_that_file() -> None:
    missing = []
    for path, text in text_files():
        for match in SECTION.finditer(text):
            if match.group("link"):
                target = path.parent / match.group("link")
            else:
                cited = match.group("path")
                target = ROOT / ("README.md" if cited.startswith("README") else cited)
            headings = [
                line.lstrip("#").strip().lower()
                for line in (text_of(target) or "").splitlines()
                if line.startswith("#")
            ]
            title = match.group("title").lower()
            if not any(title in heading for heading in headings):
                missing.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert not missing


def test_no_tracked_file_cites_the_shared_folder_outside_the_repository() -> None:
    citing = [
        path.relative_to(ROOT).as_posix()
        for path, text in text_files()
        if OUTSIDE in text and not path.relative_to(ROOT).as_posix().startswith(".ci/")
    ]
    assert not citing
