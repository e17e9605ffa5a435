"""The site and an article in a real browser: Debian's Chromium, driven by Selenium, against a
server on 127.0.0.1 that the test starts (and, for the article, opened from disk too).

What a learner does is what is checked: the pages load with no console error and no failed
request, the clip plays, its captions and chapters tracks load and hold the beats' texts, a
beat's link seeks the clip to the beat's start, every image loads, the keyboard reaches every
control (links, buttons, the video, the regions that scroll), and nothing is wider than a phone.
The server and the browser are conftest.py's, shared with test_axe.py. Screenshots at a desktop and a phone width are saved
(to the test's folder, named in the output) for a person to look at.

``./scripts/test`` installs ``chromium`` and ``chromium-driver`` when missing; without them
(another way of running pytest) these tests skip and say so. No browser is ever downloaded.
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from scenes.storyboard import load_and_plan
from scenes.storyboard.chapters import beat_chapters
from tests.publish.conftest import DESKTOP, PHONE, open_page as _open

# one worker for this module under pytest-xdist: its tests share a session-scoped fixture
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("course")]

def _errors(driver) -> list[dict]:  # type: ignore[no-untyped-def]
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def _images_load(driver) -> list[str]:  # type: ignore[no-untyped-def]
    """Bring each image into view (they load lazily) and wait for it: the sources that failed."""
    return driver.execute_async_script("""
        var done = arguments[0], imgs = Array.from(document.images);
        Promise.all(imgs.map(function (img) {
          img.loading = 'eager'; img.scrollIntoView();
          return img.decode().then(function () { return null; }, function () { return img.currentSrc || img.src; });
        })).then(function (bad) { window.scrollTo(0, 0); done(bad.filter(Boolean)); });""")


def _focus_reaches_every_link(driver) -> list[str]:  # type: ignore[no-untyped-def]
    """Press Tab through the page: the controls shown (links, buttons, the video, the regions that
    scroll) that focus never reached, by their text (a ``<video>``'s fallback link is not shown
    where the video plays)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    names = driver.execute_script(
        "var all = Array.from(document.querySelectorAll('a[href], button, video[controls], input, select, "
        "[tabindex]:not([tabindex=\"-1\"])')).filter(function (a) { return a.getClientRects().length && !a.disabled; });"
        "all.forEach(function (a, i) { a.setAttribute('data-focus-test', i); }); document.body.focus();"
        "return all.map(function (a) { return a.tagName + ' ' + (a.getAttribute('href') || a.textContent.slice(0, 40)); });")
    reached: set[str] = set()
    for _ in range(len(names) + 40):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        k = driver.execute_script("var a = document.activeElement; return a && a.getAttribute('data-focus-test');")
        if k is not None:
            reached.add(k)
    return [names[i] for i in range(len(names)) if str(i) not in reached]


def _screenshot(driver, path: Path, width: int) -> None:  # type: ignore[no-untyped-def]
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(height, 20000))
    driver.save_screenshot(str(path))
    print(f"screenshot: {path}")


def _no_wider_than_the_window(driver) -> bool:  # type: ignore[no-untyped-def]
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def test_the_site_in_a_browser(browser, server, tmp_path_factory: pytest.TempPathFactory) -> None:  # type: ignore[no-untyped-def]
    base, seen = server
    shots = tmp_path_factory.mktemp("screenshots")
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        seen.clear()
        _open(browser, f"{base}/index.html", size)
        assert _images_load(browser) == []
        assert _errors(browser) == []
        assert [s for s in seen if s[1] >= 400] == []
        assert _no_wider_than_the_window(browser), label
        _screenshot(browser, shots / f"site-{label}.png", size[0])
    _open(browser, f"{base}/index.html")
    assert _focus_reaches_every_link(browser) == []
    links = browser.execute_script("return Array.from(document.links).map(function (a) { return a.getAttribute('href'); })")
    assert links == ["#main", "walk/index.html", "walk/index.html", "walk.mp4", "build/index.html", "build/index.html",
                     "build.mp4"]


def _tracks(driver) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """Each track's cues, by kind, once loaded (a chapters track loads when it is not disabled)."""
    return driver.execute_async_script("""
        var done = arguments[0], video = document.getElementById('clip');
        var els = Array.from(video.querySelectorAll('track'));
        Promise.all(els.map(function (el) {
          if (el.track.mode === 'disabled') el.track.mode = 'hidden';
          return new Promise(function (ok) {
            if (el.readyState === 2) ok(); else { el.addEventListener('load', ok); el.addEventListener('error', ok); }
          });
        })).then(function () {
          var out = {};
          els.forEach(function (el) {
            out[el.kind] = el.readyState === 2 ? Array.from(el.track.cues).map(function (c) { return c.text; }) : null;
          });
          done(out);
        });""")


@pytest.mark.parametrize("where", ["http", "file"])
def test_an_article_in_a_browser(browser, server, course: Path, where: str,  # type: ignore[no-untyped-def]
                                 tmp_path_factory: pytest.TempPathFactory) -> None:
    base, seen = server
    _, p = load_and_plan(str(course / "storyboards" / "walk.yaml"), (), "walk")
    url = f"{base}/walk/index.html" if where == "http" else (course / "out" / "walk" / "index.html").as_uri()
    seen.clear()
    _open(browser, url)
    tracks = _tracks(browser)
    flat = {kind: [" ".join(html.unescape(c).split()) for c in cues] for kind, cues in tracks.items() if cues is not None}
    assert flat.get("captions") == [c.text for c in p.captions]
    assert flat.get("chapters") == [c.title for c in beat_chapters(p)]

    played = browser.execute_async_script("""
        var done = arguments[0], video = document.getElementById('clip');
        video.muted = true;
        var check = setInterval(function () {
          if (video.currentTime > 0.5) { clearInterval(check); video.pause(); done(video.currentTime); }
        }, 50);
        setTimeout(function () { clearInterval(check); done(video.currentTime); }, 20000);
        video.play().catch(function (e) { clearInterval(check); done('play failed: ' + e); });""")
    assert isinstance(played, float) and played > 0.5, played

    beat = p.beats[5]  # the section "Each node applies one small rule" shows beat 6's figure
    sought = browser.execute_async_script("""
        var done = arguments[0], video = document.getElementById('clip');
        var link = document.querySelector('#section-2 a.play-from');
        video.addEventListener('seeked', function () { video.pause(); done(video.currentTime); }, {once: true});
        link.click();""")
    assert abs(sought - beat.start) < 0.11, (sought, beat.start)  # the frame the beat starts on (10 fps)
    assert browser.execute_script("return location.hash") == ""  # the page stays; the video seeks

    assert _images_load(browser) == []
    assert _focus_reaches_every_link(browser) == []
    assert _errors(browser) == []
    if where == "http":
        assert [s for s in seen if s[1] >= 400] == [] and any(path.endswith("walk.mp4") for path, _ in seen)
        shots = tmp_path_factory.mktemp("screenshots")
        for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
            _open(browser, url, size)
            _images_load(browser)
            assert _no_wider_than_the_window(browser), label
            _screenshot(browser, shots / f"article-{label}.png", size[0])


def test_the_figures_read_on_a_phone_and_the_walk_steps(browser, server, course: Path) -> None:  # type: ignore[no-untyped-def]
    """At 390 px every figure's text is at least 12 CSS px (its font size in the viewBox times
    the drawn width over the viewBox's); Next, ArrowRight and a chosen step move the lit node and
    the written rule, and choosing a step seeks the clip to its visit; no inline script or style."""
    from selenium.webdriver.common.keys import Keys

    base, _ = server
    _open(browser, f"{base}/walk/index.html", PHONE)
    least = browser.execute_script("""
        var least = 1e9;
        document.querySelectorAll('svg.figure').forEach(function (svg) {
          var k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          svg.querySelectorAll('text').forEach(function (t) {
            least = Math.min(least, parseFloat(t.getAttribute('font-size')) * k);
          });
        });
        return least;""")
    assert 12 <= least < 1e9, least
    lines = browser.execute_script("""
        return Array.from(document.querySelectorAll('#values thead th')).map(function (th) {
          var r = document.createRange(); r.selectNodeContents(th);
          return new Set(Array.from(r.getClientRects()).map(function (b) { return Math.round(b.top); })).size;
        });""")
    assert lines and max(lines) == 1, lines  # the values table's header is one line on a phone

    def state():  # type: ignore[no-untyped-def]
        return browser.execute_script("""
            var fig = document.querySelector('figure.stepper');
            var ring = fig.querySelector('[data-lit]:not(.off)'), note = fig.querySelector('[data-at]:not(.off)');
            return [fig.getAttribute('data-step'), ring && ring.getAttribute('data-lit'), note && note.textContent,
                    fig.querySelector('.step-now').textContent];""")

    first = state()
    assert first[0] == first[1] == "0" and first[2].startswith("PowBackward0 at L")
    browser.find_element("css selector", "figure.stepper button.next").click()
    second = state()
    assert second[0] == second[1] == "1" and second[2].startswith("SubBackward0") and "Step 2 of 7" in second[3]
    browser.find_element("css selector", "figure.stepper button.next").send_keys(Keys.ARROW_RIGHT)
    assert state()[:2] == ["2", "2"]
    step = browser.find_element("css selector", 'figure.stepper button.step[data-step="4"]')
    start = float(step.get_attribute("data-start"))
    step.click()
    assert state()[:2] == ["4", "4"]
    assert abs(browser.execute_script("return document.getElementById('clip').currentTime") - start) < 0.2
    browser.execute_script("""var v = document.getElementById('clip');  // the clip moves the figure back
        v.currentTime = parseFloat(document.querySelector('figure.stepper button.step').getAttribute('data-start'));
        v.dispatchEvent(new Event('timeupdate'));""")
    assert state()[:2] == ["0", "0"] and state()[3] == ""  # no line names the step the figure left
    browser.find_element("css selector", '#section-1 a.lines').click()  # "lines 2–9 of the program"
    assert browser.execute_script("return Array.from(document.querySelectorAll('.line.marked'), e => e.id)") \
        == [f"L-{n}" for n in range(2, 10)]
    source = (course / "out" / "walk" / "index.html").read_text()
    assert "style=" not in source and "<script>" not in source and " onclick" not in source
    assert _errors(browser) == []


def _clip_chosen(driver) -> list:  # type: ignore[no-untyped-def]
    """The clip the page chose, once its metadata is in: its file, size, duration, poster and box."""
    return driver.execute_async_script("""
        var done = arguments[0], v = document.getElementById('clip');
        function report() {
          var box = v.getBoundingClientRect();
          done([v.currentSrc.split('/').pop(), v.videoWidth, v.videoHeight, v.duration, v.poster.split('/').pop(),
                Math.round(box.width), Math.round(box.height)]);
        }
        if (v.readyState >= 1) report(); else v.addEventListener('loadedmetadata', report);""")


def test_a_phone_held_upright_plays_the_portrait_clip(browser, server) -> None:  # type: ignore[no-untyped-def]
    """At 390 px build's page plays its 9:16 clip (``<source media>``, no script needed) in an
    upright box with its own poster; at 1280 px its 16:9 clip, as long; the walk's page, written
    with --no-portrait, plays its 16:9 clip on a phone too."""
    base, _ = server
    _open(browser, f"{base}/build/index.html", PHONE)
    phone = _clip_chosen(browser)
    _open(browser, f"{base}/build/index.html", DESKTOP)
    desktop = _clip_chosen(browser)
    assert phone[0] == "build.9x16.mp4" and phone[1] < phone[2] and phone[4] == "build.9x16.png", phone
    assert phone[6] > phone[5] > 300, phone  # upright, the column's width
    assert desktop[0] == "build.mp4" and desktop[1] > desktop[2] and desktop[4] == "build.png", desktop
    assert abs(phone[3] - desktop[3]) < 0.15, (phone, desktop)  # one plan: the tracks and links fit both
    _open(browser, f"{base}/walk/index.html", PHONE)
    assert _clip_chosen(browser)[0] == "walk.mp4"
    assert _errors(browser) == []


def test_the_values_table_fits_a_desktop_and_shows_it_scrolls_on_a_phone(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """dynamic_graph's page (no clip needed: written from its log, with the style sheet, opened
    from disk): its values table, a row per tensor of four backward calls, fits the column at
    1280 px; at 390 px the boxes that scroll sideways (the table, the program) say so with a
    shadow on the edge that has more (CSS only)."""
    from scenes.publish import pages
    from tests.publish.test_article_data import _data

    data, _, _ = _data("dynamic_graph")
    (tmp_path / "index.html").write_text(pages.render("article.html.j2", data))
    (tmp_path / "gradreel.css").write_text(pages.style_sheet())
    measure = """
        var box = document.querySelector('#values .scroll'), pre = document.querySelector('#program pre');
        function hint(el) { var s = getComputedStyle(el);
          return s.backgroundImage.indexOf('radial-gradient') >= 0 && s.backgroundAttachment.indexOf('local') >= 0; }
        return [box.scrollWidth, box.clientWidth, hint(box), hint(pre)];"""
    _open(browser, (tmp_path / "index.html").as_uri(), DESKTOP)
    wide, room, _, _ = browser.execute_script(measure)
    assert wide <= room, (wide, room)  # no sideways scroll on a desktop
    _open(browser, (tmp_path / "index.html").as_uri(), PHONE)
    assert browser.execute_script(measure)[2:] == [True, True]
