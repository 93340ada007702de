"""HTML to PDF with WeasyPrint. The stylesheet and the font configuration are built once per process.

Parsing CSS and initialising fontconfig cost more than laying out a one-page document, so both
live at module level and every render reuses them. Resources are fetched only from `data:` URIs
and from files under the document assets folder: a document never reaches the network nor reads
any other file, so a slow or hostile URL can neither stall nor probe anything. Stored images (an
office's letterhead) come through the storage API as `data:` URIs (`stored_image_data_uri`), so
rendering works the same whether media live on the local disk or in an S3 bucket.
"""
from __future__ import annotations

import base64
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import cssselect2
from weasyprint import CSS, HTML, URLFetcher
from weasyprint.text.fonts import FontConfiguration

logger = logging.getLogger(__name__)

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
    """Only `data:` URIs and local files under the allowed folders (the document assets); never the
    network, never MEDIA_ROOT (stored files are read through the storage API, not by path)."""

    def __init__(self, roots: tuple[Path, ...]):
        super().__init__(allowed_protocols={"data", "file"}, timeout=2)
        self.roots = roots

    def fetch(self, url, headers=None):
        if url.lower().startswith("file:"):
            path = Path(unquote(urlsplit(url).path)).resolve()
            if not any(path.is_relative_to(root) for root in self.roots):
                raise ValueError(f"documents may only read files from the document assets: {url}")
        return super().fetch(url, headers)


def _allowed_roots() -> tuple[Path, ...]:
    return (ASSETS_DIR,)


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


# --- Stored images (letterheads) -------------------------------------------------------------

# Image types a letterhead may have; anything else is not embedded.
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp", ".svg": "image/svg+xml"}
# A letterhead is a few dozen KB; a larger file is refused rather than inlined into every document.
MAX_STORED_IMAGE_BYTES = 4 * 1024 * 1024
_STORED_IMAGES: OrderedDict[tuple[str, str], str] = OrderedDict()
_STORED_IMAGES_MAX = 32
_STORED_IMAGES_LOCK = threading.Lock()


def _storage_identity(storage) -> str:
    """Which storage a name belongs to (a bucket and prefix, or a folder): part of the cache key."""
    bucket = getattr(storage, "bucket_name", None)
    if bucket:
        return f"s3:{bucket}/{getattr(storage, 'location', '')}"
    return f"{type(storage).__module__}.{type(storage).__qualname__}:{getattr(storage, 'location', '')}"


def stored_image_data_uri(field_file) -> str:
    """A `data:` URI with the bytes of a stored image (an ImageField/FieldFile), read through its
    storage (local folder or S3 bucket alike); "" when there is none, it is missing, it is not an
    image type, or it is larger than MAX_STORED_IMAGE_BYTES.

    Kept per process by (storage, name): a stored name is never reused for other content (uploads
    get a fresh name, S3 uses file_overwrite=False), and notices rendered by the thousand then read
    the bucket once, not once per notice. `reset_caches()` forgets them."""
    name = getattr(field_file, "name", "") or ""
    if not name:
        return ""
    media_type = IMAGE_TYPES.get(Path(name).suffix.lower())
    if media_type is None:
        logger.warning("letterhead %s is not a supported image type; not embedded", name)
        return ""
    storage = field_file.storage
    key = (_storage_identity(storage), name)
    with _STORED_IMAGES_LOCK:
        if key in _STORED_IMAGES:
            _STORED_IMAGES.move_to_end(key)
            return _STORED_IMAGES[key]
    try:
        with storage.open(name, "rb") as fh:
            content = fh.read(MAX_STORED_IMAGE_BYTES + 1)
    except (FileNotFoundError, OSError) as exc:
        logger.warning("letterhead %s cannot be read from storage: %s", name, exc)
        return ""
    if len(content) > MAX_STORED_IMAGE_BYTES:
        logger.warning("letterhead %s is larger than %d bytes; not embedded", name, MAX_STORED_IMAGE_BYTES)
        return ""
    uri = f"data:{media_type};base64,{base64.b64encode(content).decode('ascii')}"
    with _STORED_IMAGES_LOCK:
        _STORED_IMAGES[key] = uri
        while len(_STORED_IMAGES) > _STORED_IMAGES_MAX:
            _STORED_IMAGES.popitem(last=False)
    return uri


def reset_caches() -> None:
    """Forget the parsed stylesheets, the fetcher and the stored images (a changed CSS file; tests
    that change the storage)."""
    stylesheets.cache_clear()
    extra_stylesheet.cache_clear()
    _fetcher.cache_clear()
    with _STORED_IMAGES_LOCK:
        _STORED_IMAGES.clear()
