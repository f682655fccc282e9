"""Every relative link in README, docs/ and bench/README.md reaches a file, and every
``#anchor`` a heading of that page (GitHub's slugs: lower case, punctuation dropped,
spaces as hyphens); the README stays a page a newcomer reads to the end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {
        slug(line.lstrip("#"))
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    links = LINK.findall(page.read_text(encoding="utf-8"))
    for target in links:
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.name} links to {target}, which does not exist"
        if anchor:
            assert anchor in anchors(dest), f"{page.name}: no heading #{anchor} in {dest.name}"


def test_the_docs_have_a_page_per_ruleset_operations_and_developers() -> None:
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert {"hocs.md", "twod10.md", "operations.md", "developers.md", "odds.md"} <= pages
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for page in sorted(pages):
        assert f"(docs/{page}" in readme, f"README does not link docs/{page}"


def test_slugs_follow_github() -> None:
    assert slug(" Points, sessions and rest") == "points-sessions-and-rest"
    assert (
        slug("Every server: `/roll`, `/campaign` and `/help`")
        == "every-server-roll-campaign-and-help"
    )
