"""The delinquency page's figures: the aging chart (server-side SVG) and, for bonded irrigation
districts, each delinquent parcel's IRR-12 seizure limit pre-filled from its balance."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

from django.utils.translation import gettext as _

from assessments.ledger.aging import BUCKET_KEYS, BUCKET_LABELS, AgingRow
from assessments.reports.charts import Series, chart_svg
from core.money import ZERO
from core.spreadsheets import csv_writer, write_only_row
from liens.selectors import SeizureFigures, irr12_figures, net_tax_values

BAR_COLORS = {"0-60": "#0f7c7a", "61-120": "#13507f", "121-180": "#a15c00", "181-365": "#b3261e", ">365": "#6d1b16"}


def aging_chart(summary: dict[str, Decimal]) -> str:
    """The buckets as the office reports draw them (one SVG chart helper for the whole project)."""
    keys = list(BUCKET_KEYS)
    return chart_svg(uid="aging-chart", title=_("Saldo vencido por días de atraso"),
                     desc=_("Principal y recargos asentados, vencidos y pendientes, por días desde el vencimiento."),
                     labels=[str(BUCKET_LABELS[k]) for k in keys],
                     bars=[Series(_("Vencido"), [summary.get(k, ZERO) for k in keys], BAR_COLORS[keys[0]],
                                  colors=tuple(BAR_COLORS[k] for k in keys))],
                     width=520, height=340)     # drawn in half the page's width


# IRR-12 for one delinquent parcel: liens.selectors.SeizureFigures (amount_owed, max_seizable_value,
# tax_value, liens_total, net_value, whole_property_seizable, proposed_value), computed by liens alone.
SeizureLimit = SeizureFigures


def seizure_limits(rows: list[AgingRow], on: date | None = None) -> dict[int, SeizureLimit]:
    """IRR-12 figures for the rows' parcels (a few queries however many rows, liens.selectors.net_tax_values),
    each pre-filled with the whole property's net value (never negative) as the proposed seizure. The
    liens deduct what they secure on `on` (the aging date; LIEN-4), not the amounts constituted."""
    nets = net_tax_values((r.parcel_id for r in rows), on)
    out = {}
    for row in rows:
        if not row.parcel_id:
            continue
        tax_value, liens_total, _net = nets.get(row.parcel_id) or (ZERO, ZERO, ZERO)
        out[row.parcel_id] = irr12_figures(tax_value, liens_total, row.total)
    return out


def export_header(with_irr12: bool) -> list[str]:
    head = ["catastro_o_titular", "duenos"] + [f"dias_{k}" for k in BUCKET_KEYS] + ["total", "vencimiento_mas_antiguo",
                                                                                   "plazos"]
    if with_irr12:
        head += ["irr12_maximo_embargable", "irr12_valor_neto"]
    return head


def export_rows(rows: list[AgingRow], limits: dict[int, SeizureLimit] | None):
    """Rows of the export, then a totals row (bucket sums add to the summary to the cent)."""
    totals = dict.fromkeys(BUCKET_KEYS, ZERO)
    for r in rows:
        line = [r.label, r.owners_text] + [r.buckets[k] for k in BUCKET_KEYS] + [r.total, r.oldest_due,
                                                                                 r.installments]
        if limits is not None:
            lim = limits.get(r.parcel_id)
            line += [lim.max_seizable_value, lim.net_value] if lim else ["", ""]
        for k in BUCKET_KEYS:
            totals[k] += r.buckets[k]
        yield line
    last = [_("Total"), ""] + [totals[k] for k in BUCKET_KEYS] + [sum(totals.values(), ZERO), "",
                                                                   sum(r.installments for r in rows)]
    if limits is not None:
        last += ["", ""]
    yield last


def export_csv(rows: list[AgingRow], limits: dict[int, SeizureLimit] | None) -> str:
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(export_header(limits is not None))
    for line in export_rows(rows, limits):
        w.writerow(line)
    return buf.getvalue()


def export_xlsx(rows: list[AgingRow], limits: dict[int, SeizureLimit] | None) -> bytes:
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    ws = wb.create_sheet(_("Morosidad"))
    ws.append(write_only_row(ws, export_header(limits is not None)))
    for line in export_rows(rows, limits):
        ws.append(write_only_row(ws, line))
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
