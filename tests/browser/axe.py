"""axe-core in the browser tests: the rules of WCAG 2.0/2.1 A and AA and axe's best practice, run on a page.

axe-core comes with the axe-playwright-python wheel (a test dependency, pinned in pyproject.toml), which carries
axe.min.js; it is put into the page by Playwright, so the page's Content-Security-Policy needs bypassing in the
test's browser context only (`bypass_csp=True`)."""

from __future__ import annotations

import json

from axe_playwright_python.base import AXE_SCRIPT

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
WORST = ("serious", "critical")
# The rules whose findings depend on colours: all a dark page can change, since the dark theme sets colour variables
# and nothing else (test_accessibility_browser.py checks it does). Dark pages are checked with these; light ones
# with every rule. A rule set of its own in axe-core's tags: one a page's structure decides is the same in both.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def violations(page, impacts=WORST, rules: list[str] | None = None) -> list[str]:
    """Each violation of `impacts` on the page as it stands, in words: the rule, and where. Every rule of TAGS, or
    only `rules`."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": TAGS}
    options = {"runOnly": only, "resultTypes": ["violations"]}
    found = page.evaluate("options => axe.run(document, options).then(r => r.violations)", options)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(json.dumps(n["target"]) + " " + (n.get("failureSummary") or "")[:200].replace("\n", " ")
                        for n in v["nodes"][:4])
            for v in found if v["impact"] in impacts]
