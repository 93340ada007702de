"""Opening balances from the systems this one replaces: CSV, all or nothing, with a report.

Columns: cadastre or party_ref (who owes), fund (code), due_date (YYYY-MM-DD), amount, and
optionally description, surcharge_rule (NONE, LAJ-7, IRR-9, RESOLUTION), creates_lien (yes/no),
source_id (the old system's id). Each row becomes one receivable of kind OTHER with one
installment. Importing the same rows again creates nothing (source key `opening_balance`).
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from assessments.ledger.receivables import (
    ReceivableRow,
    account_for_party,
    accounts_for_parcels,
    receivables_bulk_create,
)
from assessments.models import Fund, Receivable
from core.audit import audit
from core.money import CENT, ZERO, to_decimal
from core.uploads import DEFAULT_MAX_BYTES, read_at_most, too_large_message

SOURCE_TYPE = "opening_balance"
TRUE = {"1", "yes", "si", "sí", "true", "y", "s"}


@dataclass
class ImportReport:
    ok: bool
    rows: int = 0
    created: int = 0
    skipped: int = 0
    total: Decimal = ZERO
    errors: list[tuple[int, str]] = field(default_factory=list)


@transaction.atomic
def opening_balances_import(*, file, office, issued_on: date, actor) -> ImportReport:
    """Validate every row first; any error posts nothing and the report lists them all."""
    from districts.models import Parcel, Party

    report = ImportReport(ok=False)
    data = read_at_most(file, DEFAULT_MAX_BYTES)
    if len(data) > DEFAULT_MAX_BYTES:
        report.errors.append((1, too_large_message(DEFAULT_MAX_BYTES)))
        return report
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        report.errors.append((1, _("El archivo no está en UTF-8.")))
        return report
    reader = csv.DictReader(io.StringIO(text))
    headers = {h.strip().lower() for h in reader.fieldnames or []}
    missing = [c for c in ("fund", "due_date", "amount") if c not in headers]
    if not ({"cadastre", "party_ref"} & headers):
        missing.append("cadastre|party_ref")
    if missing:
        report.errors.append((1, _("Faltan columnas: %(c)s") % {"c": ", ".join(missing)}))
        return report
    raw_rows = [(n, {(k or "").strip().lower(): (v or "").strip() for k, v in r.items()})
                for n, r in enumerate(reader, start=2)]
    report.rows = len(raw_rows)
    funds = {f.code: f for f in Fund.objects.all()}
    parcels = dict(Parcel.objects.filter(cadastre__in={r.get("cadastre") for _, r in raw_rows if r.get("cadastre")})
                   .values_list("cadastre", "pk"))
    parties = {p.ref: p for p in Party.objects.filter(ref__in={r.get("party_ref") for _, r in raw_rows
                                                              if r.get("party_ref")})}
    parsed = []
    for n, r in raw_rows:
        errs = []
        cadastre, party_ref = r.get("cadastre", ""), r.get("party_ref", "")
        if bool(cadastre) == bool(party_ref):
            errs.append(_("indique catastro o referencia de persona, no ambos"))
        elif cadastre and cadastre not in parcels:
            errs.append(_("parcela %(c)s no existe") % {"c": cadastre})
        elif party_ref and party_ref not in parties:
            errs.append(_("persona %(c)s no existe") % {"c": party_ref})
        fund = funds.get(r.get("fund", ""))
        if fund is None:
            errs.append(_("fondo %(f)s no existe") % {"f": r.get("fund")})
        try:
            due = date.fromisoformat(r.get("due_date", ""))
        except ValueError:
            errs.append(_("fecha inválida: %(d)s") % {"d": r.get("due_date")})
            due = None
        try:
            amount = to_decimal(r.get("amount", ""))
            if not amount.is_finite() or amount <= 0 or amount != amount.quantize(CENT):
                raise ValueError
        except (TypeError, ValueError, ArithmeticError):
            errs.append(_("importe inválido: %(a)s") % {"a": r.get("amount")})
            amount = None
        rule = r.get("surcharge_rule") or Receivable.SurchargeRule.NONE
        if rule not in Receivable.SurchargeRule.values:
            errs.append(_("regla de recargo desconocida: %(r)s") % {"r": rule})
        lien = r.get("creates_lien", "").lower() in TRUE
        if lien and not cadastre:
            errs.append(_("solo una parcela lleva gravamen"))
        if lien and fund is not None and not fund.lien_kind:
            errs.append(_("el fondo no indica qué gravamen crean sus cargos"))
        if errs:
            report.errors.append((n, "; ".join(errs)))
            continue
        parsed.append((n, r, cadastre, party_ref, fund, due, amount.quantize(CENT), rule, lien))
    if report.errors:
        return report

    accounts = accounts_for_parcels(parcels[c] for _, _, c, *_ in parsed if c)
    seen: Counter = Counter()
    rows = []
    for n, r, cadastre, party_ref, fund, due, amount, rule, lien in parsed:
        holder = f"P:{cadastre}" if cadastre else f"R:{party_ref}"
        account_id = accounts[parcels[cadastre]] if cadastre else account_for_party(parties[party_ref]).pk
        ident = (holder, fund.code, due.isoformat(), str(amount))
        seen[ident] += 1
        source_id = r.get("source_id") or ":".join((*ident, str(seen[ident])))
        rows.append(ReceivableRow(
            account_id=account_id, fund_id=fund.pk, office_id=office.pk, kind=Receivable.Kind.OTHER,
            source_type=SOURCE_TYPE, source_id=source_id, installments=((due, amount),),
            description=r.get("description") or _("Saldo de apertura (línea %(n)s)") % {"n": n},
            issued_on=issued_on, breakdown={"opening_balance": {"line": n, "row": r}}, surcharge_rule=rule,
            creates_lien=lien))
    result = receivables_bulk_create(rows=rows, actor=actor)
    report.ok, report.created, report.skipped, report.total = True, result.created, result.skipped, result.total
    audit(actor=actor, action="opening_balances.import", summary=f"{result.created} saldos, {result.total}",
          data={"rows": report.rows, "created": result.created, "skipped": result.skipped})
    return report
