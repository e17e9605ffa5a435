"""Pages made from hostile storyboards run nothing: not on load, not on a click, not in the
Markdown rendered with HTML allowed (as MkDocs and Jekyll render it).

What the storyboard holds is what an author (or a pull request) can put there: a title, course
title, narration, program text and printed output with HTML, ``javascript:`` URLs, backtick runs
longer than a fence and Jinja syntax. Each payload sets ``window.__pwned`` (or the title) when
it runs. A name that would make a URL of its own (``javascript:...``, ``what's #1? 100%``) is
refused at load; every URL built from a name is percent-encoded anyway, checked on the templates
with such a name. Once: a storyboard named ``javascript:void(...)`` made the article's links
``javascript:`` URLs that ran on a click, and a printed line of three backticks closed the
Markdown's fence so that the ``<script>`` after it ran.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt

from scenes.publish import pages
from scenes.publish.article import PORTRAIT_MEDIA, article_data, article_files
from scenes.publish.site import Card, site_data
from scenes.publish.thumbs import thumb_name
from scenes.storyboard import load_and_plan
from scenes.storyboard.captions import vtt_cues
from tests.hostile.harness import one_line
from tests.publish.conftest import TINY, _Server, render
from tests.publish.conftest import open_page as _open
from tests.publish.test_browser import _errors

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("hostile_pages")]

RUNS = "window.__pwned"
HOSTILE = r"""
title: "<script>window.__pwned='title'</script> {{ 7*7 }} {% raw %} ``` [x](javascript:window.__pwned='t')"
numbers: fraction
program: |
  import torch
  # ```
  # <script>window.__pwned='program'</script><img src=x onerror="window.__pwned='program'"> {{ 7*7 }} {% raw %}
  x = torch.tensor(1.0)
  w = torch.tensor(2.0, requires_grad=True)
  z = x * w
  print("````\n<script>window.__pwned='output'</script><img src=x onerror=\"window.__pwned='output'\">\n`` [a](javascript:window.__pwned='out') {{ 7*7 }} {% endraw %}")
  z.backward()
takeaway:
  text: "<img src=x onerror=\"window.__pwned='t'\"> [a](javascript:window.__pwned='t') ```` `<b>` gives {z}."
beats:
  - visual: code_and_graph_build
    lines: [4, 6]
    narration: "<script>window.__pwned='n'</script> ```` <img src=x onerror=\"window.__pwned='n'\"> [a](javascript:window.__pwned='n') `%` holds {z}."
  - visual: output
    lines: 7
    narration: "The output: `</code><script>` <b onmouseover=\"window.__pwned='o'\">bold</b> &amp; &lt;ok&gt;."
""".lstrip()
COURSE = ("title: \"<script>document.title='pwned'</script> {{ 7*7 }} {% raw %} [a](javascript:document.title='pwned')\"\n"
          "clips:\n  - hostile\n")
BAD_NAMES = ["javascript:void(window.__pwned='FN')", "what's #1? 100%", "<img src=x onerror=alert(1)>", "-rf", "a b"]


@pytest.fixture(scope="session")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An author's folder: the hostile storyboard's clip, its article and the site in out/."""
    home = tmp_path_factory.mktemp("hostile")
    (home / "storyboards").mkdir()
    (home / "storyboards" / "hostile.yaml").write_text(HOSTILE)
    (home / "course.yaml").write_text(COURSE)
    r = render("article", "storyboards/hostile.yaml", "--out", "out", *TINY, "--no-portrait", cwd=home)
    assert r.returncode == 0, r.stderr
    r = render("site", "out", cwd=home)
    assert r.returncode == 0, r.stderr
    return home


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_name_that_is_no_plain_word_is_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / "sb").mkdir()
    (tmp_path / "sb" / f"{name}.yaml").write_text(HOSTILE)
    one_line(render("check", f"sb/{name}.yaml", "--no-torch", cwd=tmp_path), f"sb/{name}.yaml:1:1:",
             "letters, digits", "rename the file")


class _Page(HTMLParser):
    """What a page holds that can run or load: scripts, event attributes, URLs, its policy."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[str | None, str]] = []
        self.handlers: list[str] = []
        self.urls: list[str] = []
        self.policy: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script":
            self.scripts.append((a.get("src"), ""))
            self._in_script = True
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.policy.append(a.get("content") or "")
        self.handlers += [k for k in a if k.startswith("on")]
        self.urls += [v for k, v in attrs if k in ("src", "href", "poster", "data-portrait-poster") and v]

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            src, text = self.scripts[-1]
            self.scripts[-1] = (src, text + data)


def _parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


def _pages(home: Path) -> list[Path]:
    return [home / "out" / "index.html", home / "out" / "hostile" / "index.html"]


def test_every_page_has_the_policy_and_no_inline_script(hostile: Path) -> None:
    for path in _pages(hostile):
        page = _parse(path.read_text())
        assert page.policy == [pages.POLICY], path
        assert all(src and not text.strip() for src, text in page.scripts), (path, page.scripts)
        for src, _ in page.scripts:
            assert (path.parent / str(src)).is_file(), src
        assert page.handlers == [], path
        assert not [u for u in page.urls if re.match(r"\s*[a-z][a-z0-9+.-]*:", u, re.I) and not u.startswith("data:")]
    assert [src for src, _ in _parse(_pages(hostile)[1].read_text()).scripts] == ["gradreel.js"]
    for rule in ("default-src 'none'", "script-src 'self'", "object-src 'none'", "base-uri 'none'"):
        assert rule in pages.POLICY
    assert "unsafe-inline" not in pages.POLICY and "http" not in pages.POLICY


def _md_html(markdown: str) -> str:
    """The Markdown as a renderer that allows HTML and checks no link's scheme makes it."""
    md = MarkdownIt("commonmark", {"html": True})
    md.validateLink = lambda url: True  # as Python-Markdown does: a javascript: link stays a link
    return md.render(markdown)


def test_the_markdown_holds_its_text_as_text(hostile: Path) -> None:
    folder = hostile / "out" / "hostile"
    html = _md_html((folder / "hostile.md").read_text())
    page = _parse(html)
    assert page.scripts == [] and page.handlers == []
    assert not [u for u in page.urls if ":" in u.split("/")[0]], page.urls
    assert "<script>" not in html and "<img src=x" not in html
    # the printing line (in the program and try it) and what it prints (twice)
    assert html.count("&lt;script&gt;window.__pwned='output'&lt;/script&gt;") == 4
    assert html.count("&lt;script&gt;window.__pwned='program'&lt;/script&gt;") == 2  # the program, and in try it
    assert html.count("<pre>") == 4  # the program, its output, try it and its output


BAD = "javascript:void(window.__pwned='FN') what's #1? 100%<img src=x onerror=alert(1)>"


def test_every_url_a_name_makes_is_percent_encoded(hostile: Path) -> None:
    """Defence in depth: were a name such as ``BAD`` let through, its files' URLs are still
    relative paths to those very files, in the page and in the Markdown, and in the site."""
    checked, p = load_and_plan(str(hostile / "storyboards" / "hostile.yaml"), (), "hostile")
    files = article_files(BAD, "mp4")
    data = article_data(checked, p, files)
    data.update(video_type="video/mp4", size=(854, 480),
                tracks={"captions": "data:,", "chapters": "data:,"}, captions_shown=True, portrait=True,
                portrait_media=PORTRAIT_MEDIA)
    stills = {b["figure"].file for b in data["beats"] if b["figure"]}
    article = _parse(pages.render("article.html.j2", data)).urls
    md = _parse(_md_html(pages.render("article.md.j2", data))).urls
    site = _parse(pages.render("site.html.j2", site_data("t", "", [
        Card(BAD, "t", "", "0:01", 1.0, f"{BAD}.mp4", thumb_name(BAD), (640, 480), f"{BAD}/index.html")]))).urls
    for url in [*article, *md]:
        assert url.startswith(("#", "data:")) or re.fullmatch(r"[A-Za-z0-9._~%/-]+(#t=[0-9.]+)?", url), url
    linked = {unquote(u.split("#")[0]) for u in article if not u.startswith(("#", "data:"))}
    assert linked == set(files.values()) - {files["chapters"]}  # the tracks are data: URLs; figures inline
    assert {unquote(u.split("#")[0]) for u in md} == {*files.values(), *stills} - {files["style"], files["script"],
                                                                                     files["markdown"], files["portrait_poster"]}
    site.remove("data:,")  # the favicon
    site.remove("#main")  # the skip link
    assert {unquote(u) for u in site} == {"gradreel.css", f"{BAD}.mp4", thumb_name(BAD), f"{BAD}/index.html"}
    assert all(re.fullmatch(r"[A-Za-z0-9._~%/-]+", u) for u in site), site
    assert md and article and site


def test_captions_are_wrapped_before_they_are_escaped() -> None:
    text = "<script>window.__pwned='n'</script> &amp; a line long enough to wrap <b>here</b> & there"
    lines = vtt_cues([(0.0, 1.0, text)]).split("\n")[4:]
    for line in filter(None, lines):
        assert re.sub(r"&(amp|lt|gt);", "", line).count("&") == 0, line  # no entity cut in two
        assert "<" not in line and ">" not in line
    import html

    assert html.unescape(" ".join(filter(None, lines))) == text


@pytest.fixture(scope="module")
def served(hostile: Path) -> Iterator[str]:
    import functools
    import http.server
    import threading

    handler = type("Handler", (_Server,), {"seen": []})
    files = functools.partial(handler, directory=str(hostile / "out"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), files)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _ran(driver) -> object:  # type: ignore[no-untyped-def]
    return driver.execute_script(f"return {RUNS} || (document.title === 'pwned' ? 'title' : null)")


def _click_every_link(driver, url: str) -> list[tuple[int, object]]:  # type: ignore[no-untyped-def]
    """Open ``url``, then click each of its links in turn (opening the page again whenever a
    click left it); each link after whose click a payload had run, with what it set."""
    _open(driver, url)
    ran = [(-1, _ran(driver))] if _ran(driver) else []
    count = driver.execute_script("return document.links.length")
    for i in range(count):
        if driver.current_url.split("#")[0] != url.split("#")[0]:
            _open(driver, url)
        driver.execute_script("delete window.__pwned; var a = document.links[arguments[0]]; "
                              "a.removeAttribute('download'); a.removeAttribute('target'); a.click();", i)
        time.sleep(0.2)  # a javascript: URL runs after the click's task
        if (what := _ran(driver)) is not None:
            ran.append((i, what))
    return ran


def test_nothing_runs_on_load_or_on_a_click(hostile: Path, browser,  # type: ignore[no-untyped-def]
                                            served: str) -> None:
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "deny"})
    folder = hostile / "out" / "hostile"
    shown = folder / "md.html"  # beside the files the Markdown links
    shown.write_text(_md_html((folder / "hostile.md").read_text()))
    for url in (f"{served}/index.html", f"{served}/hostile/index.html", (folder / "index.html").as_uri(),
                f"{served}/hostile/md.html", shown.as_uri()):
        assert _click_every_link(browser, url) == [], url
        _open(browser, url)
        assert _errors(browser) == [], url  # the policy lets the page load all it needs
    # and it holds: an inline script put into the page does not run, from disk or over HTTP
    page = (folder / "index.html").read_text()
    (folder / "tampered.html").write_text(page.replace("</body>", "<script>window.__pwned = 'inline';</script></body>"))
    for url in (f"{served}/hostile/tampered.html", (folder / "tampered.html").as_uri()):
        _open(browser, url)
        assert _ran(browser) is None, url
        assert any("Content Security Policy" in e["message"] for e in _errors(browser)), url
