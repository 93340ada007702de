"""Bank payment files: CSV with columns reference, amount, date[, bank_ref].

A file is imported once (sha256 of its content). A line is DUPLICATE when the same (reference,
amount, date, bank line id) was already posted from any file; lines without a bank id count
their occurrences within the file instead. Matched lines become TRANSFER payments on the
account of the receivable whose payment reference they carry (applied oldest due first, docs/rules/README.md#payments).
"""
from __future__ import annotations

import csv
import hashlib
import io
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from assessments.ledger.common import lock_accounts, reference_is_valid
from assessments.ledger.payments import payment_record
from assessments.models import BankFile, BankFileLine, Payment, Receivable
from core.audit import audit
from core.money import CENT, ZERO, to_decimal
from core.uploads import DEFAULT_MAX_BYTES, read_at_most, too_large_message

REQUIRED = ("reference", "amount", "date")
Status = BankFileLine.Status


@dataclass
class BankImport:
    bank_file: BankFile
    already_imported: bool

    @property
    def report(self) -> dict:
        return self.bank_file.report


def _read(file) -> tuple[bytes, str]:
    if isinstance(file, bytes):
        return file, "banco.csv"
    name = getattr(file, "name", "banco.csv") or "banco.csv"
    data = read_at_most(file, DEFAULT_MAX_BYTES)
    if len(data) > DEFAULT_MAX_BYTES:
        raise ValidationError({"file": too_large_message(DEFAULT_MAX_BYTES)})
    return data, name.rsplit("/", 1)[-1][:200]


def _parse_date(raw: str) -> date:
    raw = raw.strip()
    for fmt in ("%Y-%m-%d", "%m/%d/%Y"):
        try:
            return datetime.strptime(raw, fmt).date()
        except ValueError:
            continue
    raise ValueError(raw)


def line_key(reference: str, amount: Decimal, paid_on: date, bank_ref: str, occurrence: int) -> str:
    ident = bank_ref or f"#{occurrence}"
    digest = hashlib.sha256(f"{reference}|{amount}|{paid_on.isoformat()}|{ident}".encode()).hexdigest()
    return f"bank:{digest[:48]}"


@transaction.atomic
def bankfile_import(*, file, actor, filename: str = "") -> BankImport:
    """Import a bank file and post its matched lines; returns the file with its reconciliation report."""
    content, name = _read(file)
    sha = hashlib.sha256(content).hexdigest()
    if (found := BankFile.objects.filter(sha256=sha).first()) is not None:
        return BankImport(found, True)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError({"file": _("El archivo no está en UTF-8.")}) from None
    reader = csv.DictReader(io.StringIO(text))
    headers = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED if c not in headers]
    if missing:
        raise ValidationError({"file": _("Faltan columnas: %(c)s") % {"c": ", ".join(missing)}})
    try:
        with transaction.atomic():
            bank_file = BankFile.objects.create(sha256=sha, filename=filename or name,
                                                uploaded_by=actor if getattr(actor, "is_authenticated", False)
                                                else None)
    except IntegrityError:
        return BankImport(BankFile.objects.get(sha256=sha), True)

    lines: list[BankFileLine] = []
    occurrences: Counter = Counter()
    for n, raw in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items()}
        line = BankFileLine(bank_file=bank_file, line_no=n, reference=row.get("reference", "")[:40],
                            bank_ref=row.get("bank_ref", "")[:60])
        lines.append(line)
        try:
            amount = to_decimal(row.get("amount", ""))
            if not amount.is_finite() or amount <= 0 or amount != amount.quantize(CENT):
                raise ValueError
            line.amount = amount.quantize(CENT)
        except (TypeError, ValueError, ArithmeticError):
            line.status, line.message = Status.UNMATCHED, _("Importe inválido: %(a)s") % {"a": row.get("amount")}
            continue
        try:
            line.paid_on = _parse_date(row.get("date", ""))
        except ValueError:
            line.status, line.message = Status.UNMATCHED, _("Fecha inválida: %(d)s") % {"d": row.get("date")}
            continue
        if not reference_is_valid(line.reference):
            line.status, line.message = Status.UNMATCHED, _("Referencia inválida (dígito verificador).")
            continue
        ident = (line.reference, line.amount, line.paid_on, line.bank_ref)
        occurrences[ident] += 1
        line.key = line_key(line.reference, line.amount, line.paid_on, line.bank_ref, occurrences[ident])

    keyed = [ln for ln in lines if not ln.status]
    receivables = {r.payment_reference: r for r in Receivable.objects.filter(
        payment_reference__in={ln.reference for ln in keyed}).select_related("account")}
    posted = {p.idempotency_key: p for p in Payment.objects.filter(idempotency_key__in=[ln.key for ln in keyed])}
    to_post = []
    for ln in keyed:
        if ln.key in posted:
            ln.status, ln.payment = Status.DUPLICATE, posted[ln.key]
            ln.message = _("Ya registrado: recibo %(n)s") % {"n": posted[ln.key].receipt_number}
        elif ln.reference not in receivables:
            ln.status, ln.message = Status.UNMATCHED, _("Ninguna factura tiene esta referencia.")
        else:
            to_post.append(ln)
    lock_accounts(receivables[ln.reference].account_id for ln in to_post)
    for ln in to_post:
        rec = receivables[ln.reference]
        try:
            ln.payment = payment_record(
                account=rec.account, amount=ln.amount, method=Payment.Method.TRANSFER, paid_on=ln.paid_on,
                payer=_("Banco %(r)s") % {"r": ln.bank_ref} if ln.bank_ref else _("Banco"),
                idempotency_key=ln.key, batch=None, actor=actor, reference=ln.reference,
                source=Payment.Source.BANK, memo=_("Archivo bancario %(f)s, línea %(n)s") % {
                    "f": bank_file.filename, "n": ln.line_no})
        except ValidationError as exc:
            ln.status, ln.message = Status.UNMATCHED, "; ".join(exc.messages)[:300]
            continue
        ln.status = Status.MATCHED
        ln.message = _("Recibo %(n)s · %(d)s") % {"n": ln.payment.receipt_number, "d": rec.description}
        ln.message = ln.message[:300]
    BankFileLine.objects.bulk_create(lines)
    report = {"lines": len(lines)}
    for status in Status.values:
        chosen = [ln for ln in lines if ln.status == status]
        report[status] = {"count": len(chosen), "total": str(sum((ln.amount or ZERO for ln in chosen), ZERO))}
    bank_file.report = report
    bank_file.save(update_fields=["report"])
    audit(actor=actor, action="bankfile.import", target=bank_file, summary=f"{bank_file.filename}: "
          f"{report['MATCHED']['count']} conciliadas, {report['UNMATCHED']['count']} sin conciliar, "
          f"{report['DUPLICATE']['count']} duplicadas", data=report)
    return BankImport(bank_file, False)
