"""Helpers for the browser tests of issue #17: axe-core's automated accessibility check and the
"no sideways scrolling" measure.

axe-core 4.10.3 (MPL-2.0, tests/web/vendor/axe-LICENSE) is vendored from the npm registry
(`npm pack axe-core@4.10.3`): the tests need no network. It is injected with `page.evaluate`, which the
site's strict Content-Security-Policy does not block (a <script> tag would be), so pages are checked
under the policy they are served with.
"""
from __future__ import annotations

from pathlib import Path

AXE_SOURCE = Path(__file__).parent / "vendor" / "axe-4.10.3.min.js"
BLOCKING = ("serious", "critical")


def axe_violations(page, impacts=BLOCKING) -> list[str]:
    """The page's axe-core violations of the given impacts, one readable line each (rule, impact,
    help and the first elements found)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8"))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 4).map(n => n.target.join(' '))}));
    }""")
    return [f"{page.url}: {v['id']} ({v['impact']}) {v['help']} → {v['nodes']}"
            for v in result if v["impact"] in impacts]


def sideways_overflow(page) -> int:
    """How many CSS pixels the page is wider than the window (0: no sideways scrolling)."""
    return page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
                         " - window.innerWidth")


def in_view_horizontally(page, selector: str) -> bool:
    """The element lies within the window's width (a person need not scroll sideways to reach it)."""
    box = page.locator(selector).first.bounding_box()
    width = page.evaluate("() => window.innerWidth")
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def layout_problems(page, path: str, *, menu: bool = True, width: int = 1024) -> list[str]:
    """What the page's frame gets wrong besides axe: on staff pages one skip link and at most one
    current entry in the menu; on every page no sideways scrolling at `width`."""
    problems = []
    if menu:
        if page.locator("a.skip-link").count() != 1:
            problems.append(f"{path}: no skip link")
        if page.locator(".sidebar a[aria-current='page']").count() > 1:
            problems.append(f"{path}: more than one current page in the menu")
    overflow = sideways_overflow(page)
    if overflow > 0:
        problems.append(f"{path}: {overflow} px of sideways scrolling at {width} px")
    return problems
