"""HTML to PDF with WeasyPrint. The stylesheet and the font configuration are built once per process.

Parsing CSS and initialising fontconfig cost more than laying out a one-page document, so both
live at module level and every render reuses them. Resources are fetched only from `data:` URIs
and from files under the document assets folder and MEDIA_ROOT (letterheads): a document never
reaches the network, so a slow or hostile URL can neither stall nor probe anything.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import cssselect2
from django.conf import settings
from weasyprint import CSS, HTML, URLFetcher
from weasyprint.text.fonts import FontConfiguration

ASSETS_DIR = Path(__file__).resolve().parent
STYLESHEET = ASSETS_DIR / "document.css"
# A user-agent stylesheet with only what printed documents use, for templates that opt in
# (`lean=True`): matching WeasyPrint's full HTML5 one against every element costs ~10 ms a page.
LEAN_UA_STYLESHEET = ASSETS_DIR / "lean_ua.css"

_FONT_CONFIG = FontConfiguration()
# Layout shares the font configuration; one render at a time per process keeps it consistent.
_RENDER_LOCK = threading.Lock()


@dataclass(frozen=True)
class RenderedPdf:
    content: bytes
    page_count: int


class DocumentURLFetcher(URLFetcher):
    """Only `data:` URIs and local files under the allowed folders; never the network."""

    def __init__(self, roots: tuple[Path, ...]):
        super().__init__(allowed_protocols={"data", "file"}, timeout=2)
        self.roots = roots

    def fetch(self, url, headers=None):
        if url.lower().startswith("file:"):
            path = Path(unquote(urlsplit(url).path)).resolve()
            if not any(path.is_relative_to(root) for root in self.roots):
                raise ValueError(f"documents may only read files from the document assets or media: {url}")
        return super().fetch(url, headers)


def _allowed_roots() -> tuple[Path, ...]:
    return (ASSETS_DIR, Path(settings.MEDIA_ROOT).resolve())


@lru_cache(maxsize=1)
def _fetcher() -> DocumentURLFetcher:
    return DocumentURLFetcher(_allowed_roots())


@lru_cache(maxsize=1)
def stylesheets() -> tuple[CSS, ...]:
    """The parsed document stylesheet(s), once per process."""
    return (CSS(filename=str(STYLESHEET), font_config=_FONT_CONFIG, url_fetcher=_fetcher()),)


@lru_cache(maxsize=16)
def extra_stylesheet(path: str) -> CSS:
    """A template's own stylesheet (e.g. the notice's), parsed once per process: a <style> element
    in the HTML would be parsed again at every render."""
    return CSS(filename=path, font_config=_FONT_CONFIG, url_fetcher=_fetcher())


@lru_cache(maxsize=1)
def _lean_ua() -> CSS:
    return CSS(filename=str(LEAN_UA_STYLESHEET), font_config=_FONT_CONFIG)


class LeanHTML(HTML):
    """HTML with the lean user-agent stylesheet and no presentational hints.

    A template that is also well-formed XML (void elements closed: `<br/>`, `<img …/>`) is parsed
    by the C XML parser of the standard library, ~20× faster than WeasyPrint's pure-Python HTML5
    parser (~8 ms for a notice); anything else falls back to the HTML5 parser. Both give the same
    tree: plain (un-namespaced) tag names, character references resolved."""

    def __init__(self, *, string: str, base_url: str, url_fetcher):
        try:
            # our own templates' output (values autoescaped: no markup, no DOCTYPE or entity from
            # users), and expat never fetches external entities
            root = ElementTree.fromstring(string)  # noqa: S314
        except ElementTree.ParseError:
            super().__init__(string=string, base_url=base_url, url_fetcher=url_fetcher)
            return
        self.base_url = base_url
        self.url_fetcher = url_fetcher
        self.media_type = "print"
        self.wrapper_element = cssselect2.ElementWrapper.from_html_root(root, content_language=None)
        self.etree_element = self.wrapper_element.etree_element

    def _ua_stylesheets(self, forms=False):
        return [_lean_ua()]

    def _ph_stylesheets(self):
        return []


def html_to_pdf(html: str, *, base_url: str | None = None, stylesheet: str | Path | None = None,
                lean: bool = False) -> RenderedPdf:
    """Lay out `html` with the document stylesheet (plus `stylesheet`, a file parsed once) and
    write the PDF. `lean`: the template uses only the elements of lean_ua.css."""
    sheets = list(stylesheets())
    if stylesheet:
        sheets.append(extra_stylesheet(str(stylesheet)))
    with _RENDER_LOCK:
        document = (LeanHTML if lean else HTML)(
            string=html, base_url=base_url or ASSETS_DIR.as_uri() + "/",
            url_fetcher=_fetcher()).render(font_config=_FONT_CONFIG, stylesheets=sheets)
        content = document.write_pdf()
    return RenderedPdf(content=content, page_count=len(document.pages))


def reset_caches() -> None:
    """Forget the parsed stylesheet and fetcher (tests that change MEDIA_ROOT; a changed CSS file)."""
    stylesheets.cache_clear()
    extra_stylesheet.cache_clear()
    _fetcher.cache_clear()
