"""Writes for issued documents: render and store one, log a download."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from core.audit import audit
from core.documents.codes import new_code
from core.documents.pdf import html_to_pdf, stored_image_data_uri
from core.documents.qr import qr_png_data_uri, qr_svg_data_uri
from core.models import Document, DocumentDownloadLog, DocumentOwner

# The printed verification URL is permanent: it is on paper in people's hands.
DEFAULT_PUBLIC_BASE_URL = "https://cargos.pr.gov"


def public_base_url() -> str:
    return getattr(settings, "DOCUMENTS_PUBLIC_BASE_URL", DEFAULT_PUBLIC_BASE_URL).rstrip("/")


def verification_url(code: str) -> str:
    """The absolute public URL printed (and encoded in the QR) on a document."""
    return public_base_url() + reverse("core:verify", args=[code])


@dataclass(frozen=True)
class DocumentHeader:
    """What base_document.html needs besides the caller's context (available as `doc`)."""

    code: str
    kind: str
    kind_label: str
    title: str
    issued_at: datetime
    verify_url: str
    verify_base_url: str
    qr_data_uri: str
    office_name: str
    letterhead_src: str
    language: str

    @property
    def qr_png_data_uri(self) -> str:
        """The verification QR as a 1-bit PNG (core.documents.qr), for templates that want it."""
        if self.qr_data_uri.startswith("data:image/png"):   # document_render(qr="png") made it already
            return self.qr_data_uri
        return qr_png_data_uri(self.verify_url)


def _unused_code() -> str:
    for _ in range(8):
        code = new_code()
        if not Document.objects.filter(verification_code=code).exists():
            return code
    raise RuntimeError("could not draw an unused verification code")  # 2^60 codes: never in practice


def _letterhead_src(office) -> str:
    """A data: URI of the office's letterhead image (districts.Office.letterhead), read through its
    storage (never a local path: the media may be in an S3 bucket); "" when it has none."""
    image = getattr(office, "letterhead", None)
    if not image:
        return ""
    return stored_image_data_uri(image)


@transaction.atomic
def document_render(*, template_name: str, context: dict, kind: str, title: str, owner_party_ids=(),
                    related=None, actor=None, language: str = "es", stylesheet: str | None = None,
                    lean: bool = False, qr: str = "svg") -> Document:
    """Render `template_name` (extending documents/base_document.html) to a PDF and issue it.

    The template gets `context` plus `doc` (a DocumentHeader: code, QR, verification URL,
    letterhead). `stylesheet` (a CSS file parsed once per process) and `lean` (the lean
    user-agent sheet) are passed to core.documents.pdf.html_to_pdf. `qr`: "svg" (vectors) or
    "png" (a 1-bit PNG, for templates rendered by the thousand): the format of `doc.qr_data_uri`,
    drawn once (a QR code costs ~2 ms). The issuing office is
    `context["office"]` (a districts.Office or anything with `name`, `address_lines`, `phone`,
    `email`, `letterhead`). `title` is shown on the public
    verification page, so it must not name people or amounts. `owner_party_ids` are the
    districts.Party ids who may download it from the portal. The PDF is stored at
    documents/YYYY/MM/<code>.pdf in default storage.
    """
    if kind not in Document.Kind.values:
        raise ValidationError({"kind": f"unknown document kind {kind!r}"})
    title = (title or "").strip()
    if not title or len(title) > 200:
        raise ValidationError({"title": "a document needs a title of at most 200 characters"})
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": f"unknown language {language!r}"})
    if qr not in ("svg", "png"):
        raise ValidationError({"qr": f"unknown QR format {qr!r}"})

    code = _unused_code()
    issued_at = timezone.now()
    office = context.get("office")
    office_name = str(getattr(office, "name", "") or "")[:200]
    verify_url = verification_url(code)
    with translation.override(language):
        header = DocumentHeader(
            code=code, kind=kind, kind_label=str(Document.Kind(kind).label), title=title, issued_at=issued_at,
            verify_url=verify_url, verify_base_url=public_base_url() + reverse("core:verify_form"),
            qr_data_uri=qr_png_data_uri(verify_url) if qr == "png" else qr_svg_data_uri(verify_url),
            office_name=office_name,
            letterhead_src=_letterhead_src(office), language=language)
        html = render_to_string(template_name, {**context, "doc": header})
    pdf = html_to_pdf(html, stylesheet=stylesheet, lean=lean)
    digest = hashlib.sha256(pdf.content).hexdigest()

    local = timezone.localtime(issued_at)
    stored_name = default_storage.save(f"documents/{local:%Y}/{local:%m}/{code}.pdf", ContentFile(pdf.content))
    try:
        document = Document.objects.create(
            kind=kind, title=title, verification_code=code, file=stored_name, sha256=digest,
            size_bytes=len(pdf.content), page_count=pdf.page_count, language=language,
            template_name=template_name, office_name=office_name,
            content_type=ContentType.objects.get_for_model(related) if related is not None else None,
            object_id=related.pk if related is not None else None,
            created_at=issued_at, created_by=actor if getattr(actor, "is_authenticated", False) else None)
        party_ids = sorted({int(p) for p in owner_party_ids})
        DocumentOwner.objects.bulk_create([DocumentOwner(document=document, party_id=p) for p in party_ids])
        audit(actor=actor, action="document.issue", target=document,
              summary=f"{header.kind_label} emitido: {title} ({code})",
              data={"code": code, "kind": kind, "sha256": digest, "pages": pdf.page_count,
                    "template": template_name, "owners": party_ids,
                    "related": [document.content_type_id, document.object_id] if related is not None else None})
    except BaseException:
        default_storage.delete(stored_name)  # no row, no file
        raise
    return document


def document_download_record(*, document: Document | None = None, document_id: int | None = None, user,
                             ip: str | None = None) -> DocumentDownloadLog:
    """Log one download of `document` (or of the document `document_id`: the owners' portal sends a
    stored PDF knowing only its id and file name). The log is the trail for downloads (no
    AuditEntry per file).

    Not wrapped in transaction.atomic: it is one INSERT, atomic by itself, and inside a request
    transaction it joins it; outside one (the portal's download views) an atomic block would only
    add BEGIN and COMMIT round trips to the busiest request."""
    if (document is None) == (document_id is None):
        raise ValueError("give the document or its id, not both")
    return DocumentDownloadLog.objects.create(
        document_id=document.pk if document is not None else document_id,
        user=user if getattr(user, "is_authenticated", False) else None, ip=ip or None)
