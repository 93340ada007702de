"""Uploaded files are bounded before they are read whole.

A file is read to one byte past its limit and no further, so a caller can tell "too large" without
holding a gigabyte. An XLSX is a ZIP archive: its size on the wire says nothing of what it expands
to (313 KB became a million rows; 307 KB held one 800 MB shared string), so its members' declared
sizes are checked before openpyxl opens it, and its rows are streamed up to the row limit.
"""
from __future__ import annotations

import io
import zipfile

from django.utils.translation import gettext as _

MB = 1024 * 1024
# What a real register, bank or meter workbook expands to stays far below these.
XLSX_MAX_UNCOMPRESSED = 100 * MB
XLSX_MAX_MEMBER = 60 * MB
XLSX_MAX_RATIO = 200        # expanded / compressed, per member of any size worth checking


class UploadRefused(ValueError):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def read_at_most(file, limit: int) -> bytes:
    """At most `limit` + 1 bytes of an upload, an open file or bytes (from its start)."""
    if isinstance(file, bytes | bytearray):
        return bytes(file[: limit + 1])
    if isinstance(file, str):
        return file.encode("utf-8")[: limit + 1]
    if hasattr(file, "seek"):
        file.seek(0)
    data = file.read(limit + 1)
    return data.encode("utf-8") if isinstance(data, str) else data


def too_large_message(limit: int) -> str:
    return _("El archivo pasa de %(mb)s MB; divídalo en partes.") % {"mb": limit // MB}


def check_xlsx_archive(content: bytes) -> None:
    """Refuse a workbook whose archive would expand past the limits, from the ZIP directory alone."""
    try:
        members = zipfile.ZipFile(io.BytesIO(content)).infolist()
    except (zipfile.BadZipFile, ValueError) as exc:
        raise UploadRefused(_("No se pudo abrir el archivo XLSX: %(error)s") % {"error": exc}) from exc
    total = 0
    for m in members:
        total += m.file_size
        ratio_suspect = m.file_size > MB and m.file_size > XLSX_MAX_RATIO * max(m.compress_size, 1)
        if m.file_size > XLSX_MAX_MEMBER or ratio_suspect:
            raise UploadRefused(_("El archivo XLSX se expande a %(mb)s MB en «%(name)s»; guárdelo como CSV o "
                                  "divídalo en partes.") % {"mb": m.file_size // MB, "name": m.filename})
    if total > XLSX_MAX_UNCOMPRESSED:
        raise UploadRefused(_("El archivo XLSX se expande a %(mb)s MB (máximo %(max)s MB); divídalo en partes.") % {
            "mb": total // MB, "max": XLSX_MAX_UNCOMPRESSED // MB})


DEFAULT_MAX_BYTES = 10 * MB


def bounded_file_field(*, max_bytes: int = DEFAULT_MAX_BYTES, **kwargs):
    """A form's file field that refuses, by the size Django already knows, a file over `max_bytes`."""
    from django import forms

    class BoundedFileField(forms.FileField):
        def clean(self, data, initial=None):
            value = super().clean(data, initial)
            if value is not None and getattr(value, "size", 0) > max_bytes:
                raise forms.ValidationError(too_large_message(max_bytes), code="file_too_large")
            return value

    return BoundedFileField(**kwargs)


def check_size(content: bytes, limit: int = DEFAULT_MAX_BYTES) -> None:
    if len(content) > limit:
        raise UploadRefused(too_large_message(limit))
