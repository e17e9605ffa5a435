"""Accessibility: axe-core, run inside each page of the test course (the site and every article)
at a desktop and a phone width, finds no violation.

axe-core comes from the npm registry (``./scripts/test`` installs the pinned version into
``.cache/axe-core-VERSION/``, see ``ensure_axe`` in ``scripts/_bootstrap.sh``; ``GRADREEL_AXE``
may name another ``axe.min.js``). It is injected through Selenium, not by the page: the pages run
no script of another origin and hold no inline script, and a driver's script is not the page's.
Without axe or Chromium the test skips and says why. One browser (the session's) does it all.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.publish.conftest import DESKTOP, PHONE, open_page

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("course")]

ROOT = Path(__file__).resolve().parents[2]


def _version(path: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path.parts[-4]))


def axe_script() -> Path | None:
    """``axe.min.js``: the one ``GRADREEL_AXE`` names, else the newest that ``ensure_axe`` installed."""
    if os.environ.get("GRADREEL_AXE"):
        return Path(os.environ["GRADREEL_AXE"])
    found = sorted((ROOT / ".cache").glob("axe-core-*/node_modules/axe-core/axe.min.js"), key=_version)
    return found[-1] if found else None


def run_axe(driver, source: str) -> list[dict]:  # type: ignore[no-untyped-def]
    """axe-core's violations on the page the driver shows (every rule axe runs by default)."""
    driver.execute_script(source)
    result = driver.execute_async_script("""
        var done = arguments[0];
        axe.run(document, {resultTypes: ['violations']})
          .then(function (r) { done(r.violations.map(function (v) {
            return {id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.map(function (n) { return n.target.join(' '); })}; })); })
          .catch(function (e) { done('axe failed: ' + e); });""")
    assert isinstance(result, list), result
    return result


def describe(found: dict[str, list[dict]]) -> str:
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(f"{where}: {v['id']} ({v['impact']}): {v['help']}; {len(v['nodes'])} nodes: "
                         + ", ".join(v["nodes"][:8]) + (" ..." if len(v["nodes"]) > 8 else ""))
    return "\n".join(lines)


def test_axe_finds_no_violation_on_any_page(browser, server, course: Path) -> None:  # type: ignore[no-untyped-def]
    script = axe_script()
    if script is None or not script.is_file():
        pytest.skip(f"no axe-core ({script or ROOT / '.cache/axe-core-*'}): ./scripts/test installs it from npm")
    source = script.read_text()
    base, _ = server
    out = course / "out"
    pages = ["index.html", *sorted(p.relative_to(out).as_posix() for p in out.glob("*/index.html"))]
    assert len(pages) == 3, pages  # the site and the two articles
    found: dict[str, list[dict]] = {}
    for page in pages:
        for size in (DESKTOP, PHONE):
            open_page(browser, f"{base}/{page}", size)
            if size == DESKTOP:
                assert first_tab_stop(browser) == ["#main", True, True], page
                assert browser.execute_script("return Array.from(document.querySelectorAll('video')).every("
                                              "function (v) { return (v.getAttribute('aria-label') || '').trim(); })")
            violations = run_axe(browser, source)
            if violations:
                found[f"{page} at {size[0]} px"] = violations
    assert not found, "axe-core found:\n" + describe(found)


def first_tab_stop(driver) -> list[object]:  # type: ignore[no-untyped-def]
    """Where the first Tab lands: its href, whether it is shown once focused (a skip link hides
    until then) and whether the element it links to exists."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(driver).send_keys(Keys.TAB).perform()
    return driver.execute_script("""
        var a = document.activeElement, href = a.getAttribute('href') || '', box = a.getBoundingClientRect();
        return [href, box.top >= 0 && box.bottom <= window.innerHeight,
                href.charAt(0) === '#' && !!document.getElementById(href.slice(1))];""")
