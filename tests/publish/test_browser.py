"""The site and an article in a real browser: Debian's Chromium, driven by Selenium, against a
server on 127.0.0.1 that the test starts (and, for the article, opened from disk too).

What a learner does is what is checked: the pages load with no console error and no failed
request, the clip plays, its captions and chapters tracks load and hold the beats' texts, a
beat's link seeks the clip to the beat's start, every image loads, the keyboard reaches every
link, and nothing is wider than a phone. Screenshots at a desktop and a phone width are saved
(to the test's folder, named in the output) for a person to look at.

``./scripts/test`` installs ``chromium`` and ``chromium-driver`` when missing; without them
(another way of running pytest) these tests skip and say so. No browser is ever downloaded.
"""

from __future__ import annotations

import functools
import html
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from scenes.storyboard import load_and_plan
from scenes.storyboard.chapters import beat_chapters

# one worker for this module under pytest-xdist: its tests share a session-scoped fixture
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("course")]

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
DESKTOP, PHONE = (1280, 900), (390, 844)


class _Server(http.server.SimpleHTTPRequestHandler):
    """Files of one folder, with byte ranges (a browser seeks a video by asking for them);
    every request and its status is recorded."""

    seen: list[tuple[str, int]]

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def send_response(self, code: int, message: str | None = None) -> None:
        self.seen.append((self.path, code))
        super().send_response(code, message)

    def send_head(self):  # type: ignore[no-untyped-def]
        ranges = self.headers.get("Range", "")
        path = Path(self.translate_path(self.path))
        if not ranges.startswith("bytes=") or not path.is_file():
            return super().send_head()
        size = path.stat().st_size
        first, _, last = ranges[6:].partition("-")
        start = int(first or 0)
        end = min(int(last) if last else size - 1, size - 1)
        f = open(path, "rb")
        f.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self._left = end - start + 1
        return f

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        left = getattr(self, "_left", None)
        if left is None:
            return super().copyfile(source, outputfile)
        while left > 0 and (chunk := source.read(min(left, 1 << 16))):
            outputfile.write(chunk)
            left -= len(chunk)


@pytest.fixture(scope="module")
def server(course: Path) -> Iterator[tuple[str, list[tuple[str, int]]]]:
    seen: list[tuple[str, int]] = []
    handler = type("Handler", (_Server,), {"seen": seen})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(course / "out")))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", seen
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("no /usr/bin/chromium and /usr/bin/chromedriver: ./scripts/test installs Debian's")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--mute-audio",
                "--autoplay-policy=no-user-gesture-required", "--hide-scrollbars",
                f"--window-size={DESKTOP[0]},{DESKTOP[1]}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(30)
    yield driver
    driver.quit()


def _open(driver, url: str, size: tuple[int, int] = DESKTOP) -> None:  # type: ignore[no-untyped-def]
    driver.set_window_size(*size)
    driver.get_log("browser")  # what earlier pages logged
    driver.get(url)
    driver.execute_async_script("var done = arguments[0]; if (document.readyState === 'complete') done(); "
                                "else window.addEventListener('load', function () { done(); });")


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
    """Press Tab through the page: the links shown that focus never reached (a ``<video>``'s
    fallback link is not shown where the video plays)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    count = driver.execute_script(
        "var links = Array.from(document.querySelectorAll('a[href]')).filter(function (a) { return a.getClientRects().length; });"
        "links.forEach(function (a, i) { a.setAttribute('data-focus-test', i); }); document.body.focus(); return links.length;")
    reached: set[str] = set()
    for _ in range(count + 40):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        k = driver.execute_script("var a = document.activeElement; return a && a.getAttribute('data-focus-test');")
        if k is not None:
            reached.add(k)
    return [str(i) for i in range(count) if str(i) not in reached]


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
    assert links == ["walk/index.html", "walk.mp4", "walk/index.html", "build/index.html", "build.mp4", "build/index.html"]


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
