"""Issued documents: render a template to PDF, store it, give it a verification code and a QR.

- `core.documents.services.document_render` renders, stores and records a document;
  `document_download_record` logs a download.
- `core.documents.selectors.access_document` is the one access check for downloads;
  `document_by_code` backs the public verification page.
- `core.documents.pdf` holds WeasyPrint, its stylesheet and fonts, parsed once per process.
- `core.documents.codes` and `core.documents.qr` are pure helpers.
"""
