"""A course rendered once for the page tests: two tiny clips with their articles and the site,
in an author's own folder (course.yaml, storyboards/, out/) outside this checkout; and, for the
tests in a real browser, one server on 127.0.0.1 over its ``out/`` and one headless Chromium
(Debian's, through Selenium) that they share."""

from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RENDER = [sys.executable, "-m", "scenes.commands.main"]
TINY = ["--size", "426x240", "--fps", "10"]
COURSE = ("title: A course of my own\nintro: |\n  Why the *graph* runs backward.\n\n  Then `L.backward()` again.\n"
          "clips:\n  - walk\n  - build\n")


def render(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*RENDER, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="session")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The author's folder, with out/ holding both clips, their articles and index.html."""
    home = tmp_path_factory.mktemp("course")
    (home / "storyboards").mkdir()
    shutil.copy(ROOT / "scenes" / "storyboards" / "backward_walk.yaml", home / "storyboards" / "walk.yaml")
    shutil.copy(ROOT / "scenes" / "storyboards" / "graph_build.yaml", home / "storyboards" / "build.yaml")
    (home / "course.yaml").write_text(COURSE)
    for name, upright in (("build", []), ("walk", ["--no-portrait"])):  # build's page has its 9:16 clip too
        r = render("article", f"storyboards/{name}.yaml", "--out", "out", *TINY, *upright, cwd=home)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip().splitlines()[-1] == f"out/{name}/index.html"
    r = render("site", "out", cwd=home)
    assert r.returncode == 0, r.stderr
    return home


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


@pytest.fixture(scope="session")
def server(course: Path) -> Iterator[tuple[str, list[tuple[str, int]]]]:
    """The course's ``out/`` over HTTP: its base URL and the requests seen (path, status)."""
    seen: list[tuple[str, int]] = []
    handler = type("Handler", (_Server,), {"seen": seen})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(course / "out")))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", seen
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium for every browser test of the session (starting one costs seconds)."""
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


def open_page(driver, url: str, size: tuple[int, int] = DESKTOP) -> None:  # type: ignore[no-untyped-def]
    """Load ``url`` in a window ``size`` wide and tall and wait for its load event."""
    driver.set_window_size(*size)
    driver.get_log("browser")  # what earlier pages logged
    driver.get(url)
    driver.execute_async_script("var done = arguments[0]; if (document.readyState === 'complete') done(); "
                                "else window.addEventListener('load', function () { done(); });")
