"""axe-core in the browser tests: the rules of WCAG 2.0/2.1 A and AA and axe's best practice, run on a page.

axe-core comes with the axe-playwright-python wheel (a test dependency, pinned in pyproject.toml), which carries
axe.min.js; it is put into the page by Playwright, so the page's Content-Security-Policy needs bypassing in the
test's browser context only (`bypass_csp=True`)."""

from __future__ import annotations

import json

from axe_playwright_python.base import AXE_SCRIPT

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
WORST = ("serious", "critical")


def violations(page, impacts=WORST) -> list[str]:
    """Each violation of `impacts` on the page as it stands, in words: the rule, and where."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    found = page.evaluate("options => axe.run(document, options).then(r => r.violations)", options)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(json.dumps(n["target"]) + " " + (n.get("failureSummary") or "")[:200].replace("\n", " ")
                        for n in v["nodes"][:4])
            for v in found if v["impact"] in impacts]
