"""The project's own docs: every rule ID the code uses is documented in docs/rules/, the docs name
paths and anchors that exist, and nothing in the repository points to material outside it.

Pure file checks: no database, no Django.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "docs" / "rules"
OWN_DOCS = [*sorted(RULES_DIR.glob("*.md")), ROOT / "docs" / "architecture.md", ROOT / "docs" / "compute.md"]

# A rule ID as the code writes it: IRR-6, LAJ-7, FRA-10, SID-3, TID-6, LIEN-2, and the clock codes
# that extend one (TID-1-ORDINANCE). Look-arounds instead of \b so "TID-1-MAYOR" is read whole and
# "IRR-FY27" (a district code) or "FRA-DEMO-01" (a franchise number) are not IDs at all.
RULE_ID = re.compile(r"(?<![\w-])(?:IRR|LAJ|FRA|SID|TID|LIEN)-\d+(?:-[A-Z]+)*(?![\w-])")
# A rule entry in docs/rules/*.md: "### IRR-6 — Statutory schedule".
ENTRY = re.compile(r"^###\s+((?:IRR|LAJ|FRA|SID|TID|LIEN)-\d+(?:-[A-Z]+)*)\b", re.MULTILINE)

# Where rule IDs are looked for: the code, the templates, the shipped parameters, the JS.
CODE_SUFFIXES = {".py", ".html", ".txt", ".js", ".json"}
SKIP_DIRS = {".venv", ".git", "__pycache__", "node_modules", "media", "staticfiles", ".pytest_cache",
             ".ruff_cache", "tests"}

# Strings shaped like a rule ID that name something else, with the file they may appear in.
NOT_RULE_IDS = {
    ("liens/management/commands/seed_liens.py", "SID-7"): "the demo SID resolution number 7 (a lien's origin)",
}


def _files(suffixes: set[str] | None = None, skip: set[str] = SKIP_DIRS):
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(part in skip for part in rel.parts[:-1]) or not path.is_file():
            continue
        if suffixes is not None and path.suffix not in suffixes:
            continue
        yield rel.as_posix(), path


def _text(path: Path) -> str | None:
    if path.stat().st_size > 2_000_000:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def code_rule_ids() -> dict[str, set[str]]:
    """Rule ID → the files (outside tests/) that name it."""
    found: dict[str, set[str]] = {}
    for rel, path in _files(CODE_SUFFIXES):
        text = _text(path)
        if text is None:
            continue
        for rule_id in set(RULE_ID.findall(text)):
            if (rel, rule_id) not in NOT_RULE_IDS:
                found.setdefault(rule_id, set()).add(rel)
    return found


def documented_rule_ids() -> dict[str, str]:
    """Rule ID → the docs/rules file whose entry heading names it."""
    found = {}
    for path in sorted(RULES_DIR.glob("*.md")):
        for rule_id in ENTRY.findall(path.read_text(encoding="utf-8")):
            found.setdefault(rule_id, path.name)
    return found


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading ID, body) of every rule entry of a docs/rules file."""
    parts = re.split(r"^(###\s+.*)$", text, flags=re.MULTILINE)
    out = []
    for i in range(1, len(parts), 2):
        match = ENTRY.match(parts[i])
        if match:
            body = re.split(r"^##\s", parts[i + 1], maxsplit=1, flags=re.MULTILINE)[0]
            out.append((match.group(1), body))
    return out


def test_the_scan_sees_the_code():
    """Guard for the checks below: the regex and the walk find the IDs the engines are built on."""
    found = code_rule_ids()
    for rule_id in ("IRR-6", "LAJ-7", "FRA-1", "SID-3", "TID-2", "LIEN-2", "TID-1-ORDINANCE"):
        assert rule_id in found, rule_id
    assert "IRR-FY27" not in found and "SID-7" not in found


def test_every_rule_id_in_the_code_is_documented():
    documented = documented_rule_ids()
    missing = {rule_id: sorted(files)[:3] for rule_id, files in code_rule_ids().items() if rule_id not in documented}
    assert missing == {}, (
        "rule IDs used in the code without an entry '### ID — name' in docs/rules/*.md "
        f"(ID: first files naming it): {missing}")


def test_not_rule_ids_are_still_where_they_are_excused():
    """An excuse for a non-rule string is kept only while that file still holds it."""
    stale = [key for key in NOT_RULE_IDS if key[1] not in (ROOT / key[0]).read_text(encoding="utf-8")]
    assert stale == []


@pytest.mark.parametrize("path", sorted(RULES_DIR.glob("*.md")), ids=lambda p: p.name)
def test_every_rule_entry_says_what_where_and_why(path):
    if path.name == "README.md":
        return
    sections = _sections(path.read_text(encoding="utf-8"))
    assert sections, f"{path.name} has no rule entries"
    incomplete = {rule_id: [label for label in ("**What it says.**", "**Statute.**", "**In the code.**")
                            if label not in body]
                  for rule_id, body in sections}
    assert {k: v for k, v in incomplete.items() if v} == {}


def test_the_index_lists_every_domain_file():
    index = (RULES_DIR / "README.md").read_text(encoding="utf-8")
    unlisted = [p.name for p in RULES_DIR.glob("*.md") if p.name != "README.md" and f"({p.name}" not in index]
    assert unlisted == []


# --- Paths and links named in the docs exist ---------------------------------------------------------

PATH_LIKE = re.compile(r"`([A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+/?)`")
REPO_ROOTS = {"assessments", "config", "core", "districts", "franchises", "liens", "templates", "static",
              "tests", "docs", "deploy", "benchmarks", "locale"}


@pytest.mark.parametrize("path", OWN_DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_paths_named_in_the_docs_exist(path):
    named = {m for m in PATH_LIKE.findall(path.read_text(encoding="utf-8")) if m.split("/")[0] in REPO_ROOTS}
    assert named, "a doc of the code should name where things live"
    assert sorted(p for p in named if not (ROOT / p.rstrip("/")).exists()) == []


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    return {_slug(h) for h in re.findall(r"^#{1,6}\s+(.*)$", text, flags=re.MULTILINE)}


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("path", [*OWN_DOCS, ROOT / "README.md"], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_and_anchors_resolve(path):
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        checks_anchor = bool(anchor) and dest.is_file() and dest.suffix == ".md"
        if not dest.exists() or (checks_anchor and anchor not in _anchors(dest)):
            broken.append(target)
    assert broken == []


# --- Nothing points outside the repository ------------------------------------------------------------
#
# The shared material the product was specified from (the rulebook, the statute texts, the contract,
# the examples) is not part of the repository: the docs say it all in docs/. Two kinds of pointer are
# counted in every text file of the repository:
#
# - PATHS: a path or file name of that material ("../shared", "shared/statutes", "SPEC.md",
#   "statutes/…", "contracts/compute.md", "ARCHITECTURE.md");
# - PROSE: a pointer in words ("SPEC IRR-6", "SPEC conventions", "Statute 000 ¶5", "Estatuto 001") —
#   the statute numbers are the shared folder's file numbers, not a citation anyone can look up.
#
# The files below still hold such pointers: the rest of the repository was repointed to docs/
# (issue #15). A file not listed, or a listed file with more pointers than its count, fails: no new
# pointer gets in. A listed file with fewer fails too, so the list only shrinks.

POINTER_PATHS = re.compile(r"\.\./shared|/work/shared|\bshared/(?:statutes|examples|tools|contracts|hooks)\b"
                           r"|\bSPEC\.md\b|\bstatutes/|\bcontracts/compute\.md\b|\bARCHITECTURE\.md\b")
POINTER_PROSE = re.compile(r"\bSPEC\b(?!\.md)|\b(?:[Ss]tatutes?|[Ee]statutos?)\s+00[0-9]\b")

# Nothing in the repository points outside it any more (issue #15): both lists are empty and stay so.
LEGACY_PATHS: dict[str, int] = {}
LEGACY_PROSE: dict[str, int] = {}

SCAN_SKIP = (SKIP_DIRS - {"tests"}) | {"locale"}  # the catalogue follows the code's messages
THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()


def pointer_counts(pattern: re.Pattern) -> Counter:
    counts: Counter = Counter()
    for rel, path in _files(None, skip=SCAN_SKIP):
        if rel == THIS_FILE or path.suffix in {".mo", ".png", ".pdf", ".sqlite3", ".pyc"}:
            continue
        text = _text(path)
        if text:
            n = len(pattern.findall(text))
            if n:
                counts[rel] = n
    return counts


def _ratchet(found: Counter, legacy: dict[str, int]) -> tuple[dict, dict]:
    grown = {rel: f"{legacy.get(rel, 0)} → {n}" for rel, n in found.items() if n > legacy.get(rel, 0)}
    shrunk = {rel: f"{n} → {found.get(rel, 0)}" for rel, n in legacy.items() if found.get(rel, 0) < n}
    return grown, shrunk


@pytest.mark.parametrize(("kind", "pattern", "legacy"), [
    ("paths", POINTER_PATHS, LEGACY_PATHS),
    ("prose", POINTER_PROSE, LEGACY_PROSE),
])
def test_nothing_new_points_outside_the_repository(kind, pattern, legacy):
    grown, _ = _ratchet(pointer_counts(pattern), legacy)
    assert grown == {}, (
        f"new {kind} pointers to material outside the repository (file: listed → found); point to "
        f"docs/rules/, docs/architecture.md or docs/compute.md instead: {grown}")


@pytest.mark.parametrize(("kind", "pattern", "legacy"), [
    ("paths", POINTER_PATHS, LEGACY_PATHS),
    ("prose", POINTER_PROSE, LEGACY_PROSE),
])
def test_the_legacy_pointer_list_only_shrinks(kind, pattern, legacy):
    _, shrunk = _ratchet(pointer_counts(pattern), legacy)
    assert shrunk == {}, f"{kind} pointers were repointed: lower these counts in tests/docs/test_docs.py: {shrunk}"


def test_the_new_docs_point_nowhere_outside():
    """docs/rules, architecture and compute cite statutes by name, never the shared files."""
    offenders = {p.name: POINTER_PATHS.findall(t) + POINTER_PROSE.findall(t)
                 for p in OWN_DOCS for t in [p.read_text(encoding="utf-8")]}
    assert {k: v for k, v in offenders.items() if v} == {}
