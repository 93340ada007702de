"""Writes to the lien register (LIEN-1): register, satisfy, release, reinstate.

Every function is keyword-only, atomic and audited. Registering is idempotent on the origin
(`origin_type`, `origin_id`): a roll or a task that runs twice registers one lien.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.audit import audit
from core.money import to_decimal
from core.rule_parameters import ParameterNotFound
from liens.models import Lien, LienEvent

ORIGIN_FIELDS = ("origin_type", "origin_id")
KINDS = frozenset(Lien.Kind.values)


def lien_by_origin(origin_type: str, origin_id: str) -> Lien | None:
    """The lien a charge registered, if any (a read the charge's app needs before it acts)."""
    if not origin_id:
        return None
    return Lien.objects.filter(origin_type=origin_type, origin_id=str(origin_id)).first()


def _validate(*, kind: str, amount: Decimal, origin_type: str, origin_id: str) -> None:
    errors = {}
    if kind not in KINDS:
        errors["kind"] = _("Tipo de gravamen desconocido: %(kind)r.") % {"kind": kind}
    if amount < 0:
        errors["amount"] = _("La cuantía no puede ser negativa.")
    if bool(origin_type) != bool(origin_id):
        errors["origin_id"] = _("El origen necesita tipo e identificador.")
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def lien_register(*, parcel, kind: str, amount, constituted_on: date, actor, origin_type: str = "",
                  origin_id: str = "", origin_label: str = "", mortgage_terms: dict | None = None,
                  district_cooperative: bool = False, finances_public_infrastructure: bool = False,
                  presented_seq: int | None = None, notes: str = "") -> Lien:
    """LIEN-1: record a lien on `parcel`. With an origin, a second call returns the first lien unchanged."""
    amount = to_decimal(amount)
    origin_id = str(origin_id or "")
    _validate(kind=kind, amount=amount, origin_type=origin_type, origin_id=origin_id)
    if origin_id and (found := lien_by_origin(origin_type, origin_id)) is not None:
        return found
    lien = Lien(parcel=parcel, kind=kind, amount=amount, constituted_on=constituted_on, origin_type=origin_type,
                origin_id=origin_id, origin_label=origin_label[:200], mortgage_terms=mortgage_terms,
                district_cooperative=district_cooperative,
                finances_public_infrastructure=finances_public_infrastructure, presented_seq=presented_seq,
                notes=notes, created_by=actor if getattr(actor, "is_authenticated", False) else None)
    try:
        with transaction.atomic():
            lien.save()
    except IntegrityError:
        # A concurrent call registered the same origin first.
        found = lien_by_origin(origin_type, origin_id)
        if found is None:
            raise
        return found
    audit(actor=actor, action="lien.register", target=lien,
          summary=f"{lien.get_kind_display()} {lien.amount} sobre {parcel}",
          data={"origin": [origin_type, origin_id], "constituted_on": constituted_on.isoformat()})
    return lien


@transaction.atomic
def lien_register_bulk(*, rows: Iterable[dict], actor, batch_size: int = 2000) -> int:
    """LIEN-1 for a roll: many liens at once, skipping origins already registered. Returns how many were new.

    Each row has parcel_id, kind, amount, constituted_on, origin_type, origin_id and optionally
    origin_label and finances_public_infrastructure.
    """
    rows = list(rows)
    if not rows:
        return 0
    for row in rows:
        _validate(kind=row["kind"], amount=to_decimal(row["amount"]), origin_type=row["origin_type"],
                  origin_id=str(row["origin_id"]))
    by_type: dict[str, set[str]] = {}
    for row in rows:
        by_type.setdefault(row["origin_type"], set()).add(str(row["origin_id"]))
    existing: set[tuple[str, str]] = set()
    for origin_type, ids in by_type.items():
        id_list = list(ids)
        for i in range(0, len(id_list), 900):
            existing.update(Lien.objects.filter(origin_type=origin_type, origin_id__in=id_list[i:i + 900])
                            .values_list("origin_type", "origin_id"))
    user_id = actor.pk if getattr(actor, "is_authenticated", False) else None
    stamp = connection.ops.adapt_datetimefield_value(timezone.now())
    new = []
    for row in rows:
        key = (row["origin_type"], str(row["origin_id"]))
        if key in existing:
            continue
        existing.add(key)
        new.append((row["parcel_id"], row["kind"], to_decimal(row["amount"]), row["constituted_on"],
                    Lien.Status.ACTIVE, "", key[0], key[1], row.get("origin_label", "")[:200], False,
                    row.get("finances_public_infrastructure", False), "", user_id, stamp, stamp))
    # A roll registers up to 100k liens: plain multi-row INSERTs (every value was validated above).
    opts, qn = Lien._meta, connection.ops.quote_name
    fields = ("parcel", "kind", "amount", "constituted_on", "status", "status_reason", "origin_type", "origin_id",
              "origin_label", "district_cooperative", "finances_public_infrastructure", "notes", "created_by",
              "created_at", "updated_at")
    columns = ", ".join(qn(opts.get_field(f).column) for f in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":   # column arrays: a few parameters for 10k rows
            arrays = ", ".join(f"%s::{opts.get_field(f).db_type(connection)}[]" for f in fields)
            for i in range(0, len(new), 10000):
                cursor.execute(f"INSERT INTO {qn(opts.db_table)} ({columns}) SELECT * FROM unnest({arrays})",  # noqa: S608
                               [list(col) for col in zip(*new[i:i + 10000], strict=True)])
        elif new:
            cursor.executemany(f"INSERT INTO {qn(opts.db_table)} ({columns}) VALUES {one}", new)  # noqa: S608
    if new:
        audit(actor=actor, action="lien.register_bulk", summary=f"{len(new)} gravámenes registrados",
              data={"count": len(new), "skipped": len(rows) - len(new)})
    return len(new)


EVENT_OF_STATUS = {Lien.Status.SATISFIED: LienEvent.Kind.SATISFIED, Lien.Status.RELEASED: LienEvent.Kind.RELEASED,
                   Lien.Status.ACTIVE: LienEvent.Kind.REVIVED}


def _set_status(*, lien: Lien, status: str, on: date, reason: str, actor, action: str) -> Lien:
    """Move the lien's standing: a new dated LienEvent row (LIEN-4) and an audit entry; the
    lien's `status` follows the latest event."""
    from liens.outstanding import secured_amount

    lien = Lien.objects.select_for_update().get(pk=lien.pk)
    if lien.status == status:
        return lien
    previous = lien.status
    secured = secured_amount(lien, on)
    LienEvent.objects.create(lien=lien, kind=EVENT_OF_STATUS[status], on=on, reason=reason[:300], secured=secured,
                             actor=actor if getattr(actor, "is_authenticated", False) else None)
    lien.status = status
    lien.status_on = on
    lien.status_reason = reason[:300]
    lien.save(update_fields=["status", "status_on", "status_reason", "updated_at"])
    audit(actor=actor, action=action, target=lien, summary=f"{lien}: {previous} → {status}",
          data={"on": on.isoformat(), "reason": reason, "from": previous, "secured": str(secured)})
    return lien


@transaction.atomic
def lien_satisfy(*, lien: Lien, on: date, actor, reason: str = "") -> Lien:
    """What the lien secures reached zero (LIEN-4: paid, credited or adjusted away): it is released
    as satisfied on `on` (no-op when it already is)."""
    from liens.outstanding import has_source, secured_amount

    lien = Lien.objects.select_for_update().get(pk=lien.pk)
    if lien.status == Lien.Status.RELEASED:
        raise ValidationError({"status": _("Un gravamen cancelado no puede darse por satisfecho; reinstálelo "
                                              "primero.")})
    # LIEN-4: a charge's lien is satisfied by its books, not by hand, while it still secures something.
    if lien.status == Lien.Status.ACTIVE and has_source(lien) and (secured := secured_amount(lien, on)) > 0:
        raise ValidationError({"status": _("El gravamen aún garantiza %(amount)s al %(date)s: queda satisfecho "
                                           "cuando su cargo se salda (LIEN-4).") % {
            "amount": f"${secured:,.2f}", "date": on.strftime("%d/%m/%Y")}})
    return _set_status(lien=lien, status=Lien.Status.SATISFIED, on=on, reason=reason or "Pagado en su totalidad",
                       actor=actor, action="lien.satisfy")


@transaction.atomic
def lien_release(*, lien: Lien, on: date, reason: str, actor) -> Lien:
    """Cancel a lien (e.g. the charge was written off or annulled); the reason is required."""
    if not reason.strip():
        raise ValidationError({"reason": _("Indique el motivo de la cancelación.")})
    return _set_status(lien=lien, status=Lien.Status.RELEASED, on=on, reason=reason, actor=actor,
                       action="lien.release")


@transaction.atomic
def lien_reinstate(*, lien: Lien, on: date, reason: str, actor) -> Lien:
    """Back to active (LIEN-4: a reversal — a returned check — reopened the charge, so the lien
    revives on `on`); no-op when already active."""
    return _set_status(lien=lien, status=Lien.Status.ACTIVE, on=on, reason=reason, actor=actor,
                       action="lien.reinstate")


# ---------------------------------------------------------------------------------------------
# Ranking (LIEN-2), rulings, staff-recorded encumbrances, IRR-12 checks and lien certificates.
# ---------------------------------------------------------------------------------------------

MORTGAGE_TERM_FIELDS = ("term_years", "fixed_annual_installments", "rate_pct", "purpose", "principal_per_cuerda")


def _open_flag(parcel, kind: str):
    from django.contrib.contenttypes.models import ContentType

    from core.models import Flag

    return Flag.objects.filter(kind=kind, content_type=ContentType.objects.get_for_model(parcel),
                               object_id=parcel.pk, resolved_on__isnull=True).first()


@transaction.atomic
def lien_rank(*, parcel, actor):
    """LIEN-2 on demand: recompute the parcel's ranking and keep its legal-review flag in step.

    A conflict between two statutes or a cycle raises one LIEN_CONFLICT flag on the parcel naming
    the rules and the liens (raised again only when what blocks changes); a ranking with nothing
    blocking it resolves the open flag. Running it twice changes nothing. Returns the ranking
    (liens.selectors.ParcelRanking).
    """
    from core.models import Flag
    from core.workqueue import flag_raise, flag_resolve
    from districts.models import Parcel
    from liens import selectors

    parcel = Parcel.objects.select_for_update().get(pk=parcel.pk)  # one re-rank of a parcel at a time
    ranking = selectors.parcel_ranking(parcel)
    flag = _open_flag(parcel, Flag.Kind.LIEN_CONFLICT)
    if ranking.blocked:
        description = ranking.blocking_text()
        if flag is not None and flag.description != description:
            flag_resolve(flag=flag, actor=actor, resolution="Los conflictos de la parcela cambiaron; "
                                                            "se abrió un asunto nuevo con los actuales.")
            flag = None
        if flag is None:
            flag = flag_raise(kind=Flag.Kind.LIEN_CONFLICT, target=parcel, description=description, rule="LIEN-2",
                              severity=Flag.Severity.HIGH, actor=actor)
            audit(actor=actor, action="lien.rank", target=parcel,
                  summary=f"Gravámenes de {parcel} en conflicto: revisión legal",
                  data={"blocked": True, "flag": flag.pk,
                        "conflicts": [{"a": c.a.id, "b": c.b.id, "rules": list(c.rules)} for c in ranking.conflicts],
                        "cycles": [[r.id for r in cycle] for cycle in ranking.cycles]})
    elif flag is not None:
        refs = sorted({d.ruling.reference for d in ranking.decisions if d.ruling is not None})
        resolution = "El rango de los gravámenes ya no tiene conflictos"
        resolution += f" (resoluciones: {', '.join(refs)})." if refs else "."
        flag_resolve(flag=flag, actor=actor, resolution=resolution)
        audit(actor=actor, action="lien.rank", target=parcel, summary=f"Gravámenes de {parcel}: rango sin conflictos",
              data={"blocked": False, "flag": flag.pk, "ranks": [list(g) for g in ranking.ranking.ranks]})
    return ranking


def _clean_mortgage_terms(terms: dict | None, amount: Decimal, parcel) -> dict:
    """IRR-11 terms as stored (numbers as text). Without `principal_per_cuerda` it is the amount
    over the parcel's cuerdas, rounded half-up to the cent."""
    from core.money import round_half_up

    terms = dict(terms or {})
    errors = {}
    if terms.get("principal_per_cuerda") in (None, ""):
        cuerdas = parcel.area_cuerdas
        if cuerdas and cuerdas > 0:
            terms["principal_per_cuerda"] = round_half_up(amount / cuerdas)
    for key in MORTGAGE_TERM_FIELDS:
        if terms.get(key) in (None, ""):
            errors[key] = _("Requerido para clasificar la hipoteca (IRR-11).")
    term = terms.get("term_years")
    if "term_years" not in errors and (isinstance(term, bool) or not str(term).isdigit()):
        errors["term_years"] = _("Número entero de años.")
    for key in ("rate_pct", "principal_per_cuerda"):
        if key not in errors:
            try:
                value = to_decimal(terms[key])
                if not value.is_finite() or value < 0:
                    raise ValueError
            except (TypeError, ValueError):
                errors[key] = _("Número no negativo.")
    from liens.rules import PURPOSES

    if "purpose" not in errors and terms["purpose"] not in PURPOSES:
        errors["purpose"] = _("Uno de %(choices)s.") % {"choices": ", ".join(PURPOSES)}
    for key in ("fixed_annual_installments", "irrigation_benefit"):
        if not isinstance(terms.get(key, True), bool):
            errors[key] = _("Sí o no.")
    if errors:
        raise ValidationError(errors)
    return {"term_years": int(term), "fixed_annual_installments": terms["fixed_annual_installments"],
            "rate_pct": str(to_decimal(terms["rate_pct"])), "purpose": terms["purpose"],
            "principal_per_cuerda": str(to_decimal(terms["principal_per_cuerda"])),
            "irrigation_benefit": terms.get("irrigation_benefit", True)}


@transaction.atomic
def lien_record(*, parcel, kind: str, amount, constituted_on: date, actor, origin_label: str = "",
                mortgage_terms: dict | None = None, district_cooperative: bool = False,
                finances_public_infrastructure: bool = False, presented_seq: int | None = None,
                notes: str = "") -> Lien:
    """LIEN-1 "other encumbrances" recorded by staff (property tax, transferred tax debt, mortgages
    with their IRR-11 terms and the irrigation-benefit attestation, refaccionario credits, others),
    then the parcel is re-ranked (lien_rank)."""
    from liens.selectors import RECORDABLE_KINDS

    amount = to_decimal(amount)
    errors = {}
    if kind not in RECORDABLE_KINDS:
        errors["kind"] = _("Los gravámenes de riego, Lajas, SID y TID los registra su cargo; aquí se "
                           "registran otros gravámenes.")
    if district_cooperative and kind != Lien.Kind.REFACCIONARIO:
        errors["district_cooperative"] = _("Solo un crédito refaccionario puede ser de una cooperativa del distrito.")
    if mortgage_terms and kind != Lien.Kind.MORTGAGE:
        errors["mortgage_terms"] = _("Solo una hipoteca lleva términos de hipoteca.")
    if errors:
        raise ValidationError(errors)
    terms = _clean_mortgage_terms(mortgage_terms, amount, parcel) if kind == Lien.Kind.MORTGAGE else None
    lien = lien_register(parcel=parcel, kind=kind, amount=amount, constituted_on=constituted_on, actor=actor,
                         origin_label=origin_label, mortgage_terms=terms, district_cooperative=district_cooperative,
                         finances_public_infrastructure=finances_public_infrastructure, presented_seq=presented_seq,
                         notes=notes)
    lien_rank(parcel=parcel, actor=actor)
    return lien


@transaction.atomic
def lien_change_status(*, lien: Lien, status: str, on: date, reason: str, actor) -> Lien:
    """Satisfy, release or reinstate a lien through the register's services, then re-rank its parcel."""
    actions = {Lien.Status.SATISFIED: lien_satisfy, Lien.Status.RELEASED: lien_release,
               Lien.Status.ACTIVE: lien_reinstate}
    if status not in actions:
        raise ValidationError({"status": _("Estado desconocido: %(status)r.") % {"status": status}})
    if status == Lien.Status.ACTIVE and not reason.strip():
        raise ValidationError({"reason": _("Indique el motivo de la reinstalación.")})
    lien = actions[status](lien=lien, on=on, reason=reason, actor=actor)
    lien_rank(parcel=lien.parcel, actor=actor)
    return lien


def _require_legal_reviewer(actor) -> None:
    from django.core.exceptions import PermissionDenied

    from core import roles

    if not roles.can(actor, roles.RULE):
        raise PermissionDenied(_("Solo un revisor legal puede registrar o revocar resoluciones sobre el rango."))


def _who(actor) -> str:
    return (actor.get_full_name() or actor.username) if getattr(actor, "is_authenticated", False) else "sistema"


@transaction.atomic
def lien_ruling_record(*, parcel, higher: Lien, lower: Lien, reference: str, actor, note: str = "",
                       decided_at=None):
    """LIEN-2 step 1: a legal reviewer rules that `higher` outranks `lower` (reason RULING).

    Only a legal reviewer (PermissionDenied otherwise); both liens must be active liens of the
    parcel; one ruling per pair. The parcel is re-ranked, which clears its conflict flag when
    nothing else blocks the ranking.
    """
    from django.db.models import Q
    from django.utils import timezone

    from liens.models import LienRuling
    from liens.selectors import lien_label

    _require_legal_reviewer(actor)
    reference = (reference or "").strip()
    errors = {}
    if not reference:
        errors["reference"] = _("Indique la referencia de la resolución (sentencia u opinión legal).")
    for name, lien in (("higher", higher), ("lower", lower)):
        if lien.parcel_id != parcel.pk:
            errors[name] = _("El gravamen no pertenece a esta parcela.")
        elif lien.status != Lien.Status.ACTIVE:
            errors[name] = _("El gravamen no está vigente.")
    if higher.pk == lower.pk:
        errors["lower"] = _("Una resolución ordena dos gravámenes distintos.")
    if not errors:
        pair = LienRuling.objects.filter(Q(higher=higher, lower=lower) | Q(higher=lower, lower=higher)).first()
        if pair is not None:
            errors["lower"] = _("Ya existe la resolución %(reference)s para este par; revóquela antes de "
                                 "registrar otra.") % {"reference": pair.reference}
    if errors:
        raise ValidationError(errors)
    ruling = LienRuling(parcel=parcel, higher=higher, lower=lower, reference=reference[:120], note=note,
                        decided_by=actor, decided_at=decided_at or timezone.now())
    try:
        with transaction.atomic():
            ruling.save()
    except IntegrityError:
        raise ValidationError({"lower": _("Ya existe una resolución para este par de gravámenes.")}) from None
    audit(actor=actor, action="lien.ruling", target=ruling,
          summary=f"Resolución {reference}: {lien_label(higher)} sobre {lien_label(lower)} — {_who(actor)}",
          data={"parcel": parcel.pk, "higher": higher.pk, "lower": lower.pk, "reference": reference, "note": note,
                "decided_by": actor.username, "decided_at": ruling.decided_at.isoformat()})
    lien_rank(parcel=parcel, actor=actor)
    return ruling


@transaction.atomic
def lien_ruling_revoke(*, ruling, reason: str, actor) -> None:
    """Withdraw a ruling (legal reviewer only; the reason is required); the parcel is re-ranked."""
    _require_legal_reviewer(actor)
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Indique el motivo de la revocación.")})
    parcel = ruling.parcel
    audit(actor=actor, action="lien.ruling_revoke", target=parcel,
          summary=f"Resolución {ruling.reference} revocada — {_who(actor)}",
          data={"ruling": ruling.pk, "higher": ruling.higher_id, "lower": ruling.lower_id,
                "reference": ruling.reference, "decided_by": ruling.decided_by_id,
                "decided_at": ruling.decided_at.isoformat(), "reason": reason})
    ruling.delete()
    lien_rank(parcel=parcel, actor=actor)


@transaction.atomic
def lien_seizure_check(*, parcel, amount_owed, proposed_value, actor, note: str = ""):
    """IRR-12: check a proposed seizure of a delinquent parcel of a bonded irrigation district.

    `max_seizable_value = 2 × amount_owed`; a proposal above it raises a SEIZURE_LIMIT flag on the
    parcel (staff must choose a part of the property worth at most that); a proposal within it
    resolves an open one. Returns liens.selectors.SeizureFigures.
    """
    from core.models import Flag
    from core.workqueue import flag_raise, flag_resolve
    from liens import selectors

    errors = {}
    try:
        amount_owed, proposed_value = to_decimal(amount_owed), to_decimal(proposed_value)
    except (TypeError, ValueError):
        raise ValidationError(_("Las cantidades deben ser números.")) from None
    if amount_owed <= 0 or amount_owed != amount_owed.quantize(Decimal("0.01")):
        errors["amount_owed"] = _("La deuda debe ser mayor que cero, en centavos.")
    if proposed_value < 0 or proposed_value != proposed_value.quantize(Decimal("0.01")):
        errors["proposed_value"] = _("El valor propuesto no puede ser negativo y va en centavos.")
    districts = selectors.bonded_irrigation_districts(parcel)
    if not districts:
        errors["__all__"] = _("IRR-12 aplica a parcelas de un distrito de riego con bonos; esta parcela "
                                "no pertenece a ninguno.")
    if errors:
        raise ValidationError(errors)
    figures = selectors.seizure_figures(parcel, amount_owed, proposed_value)
    check = figures.check
    open_flag = _open_flag(parcel, Flag.Kind.SEIZURE_LIMIT)
    if not check.allowed:
        text = (f"IRR-12: el embargo propuesto de ${proposed_value:,.2f} excede el máximo embargable de "
                f"${check.max_seizable_value:,.2f} (2 × deuda de ${amount_owed:,.2f}) por ${check.excess:,.2f}; "
                "elija una parte de la propiedad que no exceda ese valor.")
        if note:
            text += f"\nNota: {note}"
        flag_raise(kind=Flag.Kind.SEIZURE_LIMIT, target=parcel, description=text, rule="IRR-12",
                   severity=Flag.Severity.HIGH, actor=actor)
    elif open_flag is not None:
        flag_resolve(flag=open_flag, actor=actor,
                     resolution=f"Nueva propuesta de ${proposed_value:,.2f} dentro del máximo de "
                                f"${check.max_seizable_value:,.2f} (IRR-12).")
    audit(actor=actor, action="lien.seizure_check", target=parcel,
          summary=f"IRR-12 {parcel}: propuesta {proposed_value} contra máximo {check.max_seizable_value}"
                  f" — {'dentro del límite' if check.allowed else 'excede el límite'}",
          data={"amount_owed": str(amount_owed), "proposed_value": str(proposed_value),
                "max_seizable_value": str(check.max_seizable_value), "allowed": check.allowed,
                "excess": str(check.excess), "tax_value": str(figures.tax_value),
                "liens_total": str(figures.liens_total), "net_value": str(figures.net_value), "note": note,
                "districts": [d.code for d in districts]})
    return figures


@transaction.atomic
def lien_certificate_issue(*, parcel, on: date, actor, office=None, language: str = "es"):
    """The lien certificate (*certificación de gravámenes*) of `parcel` as of `on`: an issued
    document (PDF with verification code and QR) the owners of record may also download."""
    from django.utils import timezone, translation
    from django.utils.translation import gettext

    from core.documents.services import document_render
    from core.models import Document
    from liens import selectors

    if on > timezone.localdate():
        raise ValidationError({"on": _("La certificación no puede tener fecha futura.")})
    try:
        context = selectors.certificate_context(parcel, on, office)
    except ParameterNotFound:  # before the first lien-law parameters in force
        raise ValidationError({"on": _("No hay parámetros de gravámenes vigentes al %(date)s: elija una fecha "
                                       "posterior.") % {"date": on.isoformat()}}) from None
    context["issued_by"] = _who(actor)
    with translation.override(language):
        title = gettext("Gravámenes de la parcela %(cadastre)s al %(date)s") % {
            "cadastre": parcel.cadastre, "date": on.strftime("%d/%m/%Y")}
    return document_render(template_name="liens/certificate.html", context=context,
                           kind=Document.Kind.LIEN_CERTIFICATE, title=title,
                           owner_party_ids=[o.party_id for o in context["owners"]], related=parcel, actor=actor,
                           language=language)
