"""Every write about notices: issue (number + snapshot), render the PDF, correct, mail, batch.

Idempotent throughout (a task may be delivered twice): a receivable has at most one current
notice (a partial unique constraint), issuing finds it; numbering locks the receivables first,
so two workers on the same receivables serialize and the second finds the first's notices;
rendering locks the notice and does nothing when its PDF exists; a batch takes only notices that
have none, under their row locks.

Numbers are gapless per year: `take_numbers` moves the counter in the same transaction as the
notices it numbers (a rollback gives the numbers back). Rendering happens after the numbering
transaction, one notice per transaction, so workers do not queue on the counter while a PDF is
laid out.
"""
from __future__ import annotations

import csv
import gc
import hashlib
import io
import logging
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from assessments.ledger.common import take_numbers
from assessments.models import Receivable
from assessments.notices import rules
from assessments.notices.context import RenderCache, addressees_for, notice_context
from assessments.notices.models import MailingBatch, MailingMethod, Notice, NoticeAddressee
from assessments.notices.selectors import source_label
from core.audit import audit
from core.documents.codes import new_code
from core.documents.services import document_render, public_base_url
from core.spreadsheets import csv_writer

log = logging.getLogger(__name__)
TEMPLATE = "notices/notice.html"
STYLESHEET = str(Path(__file__).resolve().with_name("notice.css"))   # parsed once per process
CHUNK = 200


def _user(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


def _receivables(ids: Iterable[int]):
    return (Receivable.objects.filter(pk__in=list(ids))
            .select_related("account", "account__parcel", "account__parcel__municipality", "account__party",
                            "account__party__address_municipality", "fund", "office")
            .prefetch_related("installments"))


def _program(receivable: Receivable) -> str:
    breakdown = receivable.breakdown or {}
    line_rules = [str(line.get("rule", "")) for line in breakdown.get("lines", []) if isinstance(line, dict)] \
        if isinstance(breakdown.get("lines"), list) else []
    return rules.program_of(declared=str(breakdown.get("program", "")), is_party_account=receivable.account.party_id
                            is not None, lien_kind=receivable.fund.lien_kind, surcharge_rule=receivable.surcharge_rule,
                            rules=[str(breakdown.get("rule", "")), *line_rules])


def _method(receivable: Receivable, program: str) -> str:
    """How the notice is mailed: what the billing declares (a TID collected by CRIM goes by CRIM's
    regular mail, TID-3), else by program (rules.mailing_method)."""
    return rules.mailing_method(program, declared=str((receivable.breakdown or {}).get("mailing_method", "")))


def _sort_key(receivable: Receivable) -> str:
    account = receivable.account
    if account.parcel_id:
        return rules.sort_key(cadastre=account.parcel.cadastre)
    return rules.sort_key(holder=account.party.display_name)


def _lock_receivables(ids: list[int]) -> None:
    """Row locks on the receivables, ascending: concurrent issuers of the same charges serialize.
    FOR NO KEY UPDATE on PostgreSQL, so payments posting entries that reference them are not held."""
    qs = Receivable.objects.filter(pk__in=ids).order_by("pk")
    list(qs.select_for_update(no_key=connection.vendor == "postgresql").values_list("pk", flat=True))


# --- issue ----------------------------------------------------------------------------------------

@transaction.atomic
def notices_number(*, receivable_ids: Iterable[int], actor, language: str | None = None, on: date | None = None) \
        -> list[Notice]:
    """Number the current notice of every receivable that has none (snapshot of its addressees on
    `on`, today by default). Returns the notices created (none on a second run). Without
    `language`, each notice is in its addressees' language (rules.notice_language)."""
    if language is not None and language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": _("Idioma desconocido: %(l)s") % {"l": language}})
    ids = sorted({int(i) for i in receivable_ids})
    if not ids:
        return []
    _lock_receivables(ids)
    have = set(Notice.objects.filter(receivable_id__in=ids).exclude(status=Notice.Status.REPLACED)
               .values_list("receivable_id", flat=True))
    todo = list(_receivables(i for i in ids if i not in have))
    if not todo:
        return []
    on = on or timezone.localdate()
    todo.sort(key=lambda r: (_sort_key(r), r.pk))
    snapshots = addressees_for(todo, on)
    first = take_numbers(rules.counter_key(on.year), len(todo))
    user = _user(actor)
    notices = []
    for i, rec in enumerate(todo):
        program = _program(rec)
        notices.append(Notice(
            receivable=rec, number=rules.notice_number(on.year, first + i), year=on.year, seq=first + i,
            addressees=snapshots[rec.pk], language=language or rules.notice_language(snapshots[rec.pk]),
            issued_on=on, program=program,
            source_type=rec.source_type, sort_key=_sort_key(rec), method=_method(rec, program),
            created_by=user))
    Notice.objects.bulk_create(notices)
    if any(n.pk is None for n in notices):  # a backend that does not return ids from bulk inserts
        pks = dict(Notice.objects.filter(year=on.year, seq__gte=first, seq__lt=first + len(notices), revision=0)
                   .values_list("seq", "pk"))
        for n in notices:
            n.pk = n.id = pks[n.seq]
    NoticeAddressee.objects.bulk_create([
        NoticeAddressee(notice_id=n.pk, party_id=a["party_id"]) for n in notices for a in n.addressees])
    audit(actor=actor, action="notice.issue" if len(notices) == 1 else "notice.issue_bulk",
          target=notices[0] if len(notices) == 1 else None,
          summary=(f"Aviso {notices[0].number} emitido" if len(notices) == 1
                   else f"{len(notices)} avisos emitidos ({notices[0].number} … {notices[-1].number})"),
          data={"numbers": [notices[0].number, notices[-1].number], "count": len(notices),
                "receivables": [n.receivable_id for n in notices][:1000], "on": on.isoformat()})
    return notices


@transaction.atomic
def notice_render(*, notice: Notice, actor, cache: RenderCache | None = None) -> Notice:
    """Render and store the PDF of `notice` once (a notice that has one is returned unchanged).

    Draws a portal activation code for each addressee without a portal account, prints it, and
    keeps only its hash.
    """
    notice = (Notice.objects.select_for_update(of=("self",))
              .select_related("receivable", "receivable__account", "receivable__account__parcel",
                              "receivable__account__parcel__municipality", "receivable__account__party",
                              "receivable__fund", "receivable__office", "receivable__office__address_municipality",
                              "replaces")
              .get(pk=notice.pk))
    if notice.document_id is not None:
        return notice
    codes: dict[int, str] = {}
    rows = list(notice.addressee_rows.select_related("party"))
    for row in rows:
        if row.party.user_id is None and row.activation_used_at is None:
            code = new_code()
            row.activation_hash = rules.activation_hash(code)
            codes[row.party_id] = code
    if codes:
        NoticeAddressee.objects.bulk_update([r for r in rows if r.party_id in codes], ["activation_hash"])
    with translation.override(notice.language):   # the words the context builds are in the notice's language
        context = notice_context(notice, activation_codes=codes, cache=cache,
                                 portal_url=public_base_url() + reverse("portal:activate"))
    document = document_render(
        template_name=TEMPLATE, context=context, kind="NOTICE",
        title=_("Aviso de cobro %(n)s") % {"n": notice.display_number},
        owner_party_ids=[a["party_id"] for a in notice.addressees], related=notice, actor=actor,
        language=notice.language, stylesheet=STYLESHEET, lean=True, qr="png")
    notice.document = document
    notice.rendered_at = timezone.now()
    notice.save(update_fields=["document", "rendered_at"])
    return notice


@transaction.atomic
def notice_issue(*, receivable: Receivable, actor, language: str | None = None, replaces: Notice | None = None,
                 reason: str = "", render: bool = True) -> Notice:
    """The current notice of `receivable`: the existing one (rendered if it had no PDF yet), or a
    new one. With `replaces`, a corrected notice: a new Notice with the same number and the next
    revision, a fresh snapshot of the addressees, naming the one it replaces (which keeps its
    number, its PDF and its mailing record). Correcting again a notice already replaced returns
    its correction (a task delivered twice changes nothing)."""
    if replaces is None:
        current = Notice.objects.filter(receivable=receivable).exclude(status=Notice.Status.REPLACED).first()
        if current is None:
            created = notices_number(receivable_ids=[receivable.pk], actor=actor, language=language)
            current = created[0] if created else Notice.objects.filter(receivable=receivable).exclude(
                status=Notice.Status.REPLACED).get()
        return notice_render(notice=current, actor=actor) if render else current

    old = Notice.objects.select_for_update().get(pk=replaces.pk)
    if old.receivable_id != receivable.pk:
        raise ValidationError({"replaces": _("El aviso que se corrige es de otro cargo.")})
    if old.status == Notice.Status.REPLACED:
        return old.replaced_by
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Indique el motivo de la corrección.")})
    _lock_receivables([receivable.pk])
    rec = _receivables([receivable.pk]).get()
    on = timezone.localdate()
    program = _program(rec)
    addressees = addressees_for([rec], on)[rec.pk]
    old.status = Notice.Status.REPLACED
    old.save(update_fields=["status"])
    new = Notice.objects.create(
        receivable=rec, replaces=old, number=old.number, year=old.year, seq=old.seq, revision=old.revision + 1,
        correction_reason=reason.strip(), addressees=addressees, language=language or old.language, issued_on=on,
        program=program, source_type=rec.source_type, sort_key=_sort_key(rec),
        method=_method(rec, program), created_by=_user(actor))
    NoticeAddressee.objects.bulk_create([NoticeAddressee(notice=new, party_id=a["party_id"])
                                         for a in new.addressees])
    audit(actor=actor, action="notice.correct", target=new,
          summary=f"Aviso {new.display_number} sustituye a {old.display_number}",
          data={"replaces": old.pk, "reason": reason.strip(), "receivable": rec.pk})
    return notice_render(notice=new, actor=actor) if render else new


LANGUAGE_REASON = {   # marked for the catalogue; translated into the new notice's language below
    "en": gettext_noop("Emitido en inglés a petición del dueño"),
    "es": gettext_noop("Emitido en español a petición del dueño"),
}


def notice_issue_in_language(*, notice: Notice, language: str, actor) -> Notice:
    """The notice in another language, on request ("Emitir en inglés"): a corrected notice with
    the same number, the same charge and today's owners of record, in `language`, naming the one
    it replaces. A notice already in `language` is returned as it is; so is one already replaced
    (its correction is the current one)."""
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": _("Idioma desconocido: %(l)s") % {"l": language}})
    if notice.status == Notice.Status.REPLACED:
        return notice.replaced_by
    if notice.language == language:
        return notice
    with translation.override(language):   # the reason is printed on the new notice, in its language
        reason = _(LANGUAGE_REASON.get(language, LANGUAGE_REASON["es"]))
    return notice_issue(receivable=notice.receivable, actor=actor, language=language, replaces=notice,
                        reason=reason)


@dataclass
class IssueResult:
    numbered: int = 0
    rendered: int = 0
    failed: list[int] = field(default_factory=list)


def notices_issue_chunk(*, receivable_ids: Iterable[int], actor, language: str | None = None, render: bool = True,
                        cache: RenderCache | None = None) -> IssueResult:
    """Make sure every receivable of the chunk has its current notice, rendered.

    Not one transaction on purpose: numbering is one short transaction (the counter's lock is
    held for milliseconds), then each PDF is rendered in its own, so a worker killed half way
    leaves numbered notices that the redelivered task renders, never duplicates.
    """
    ids = sorted({int(i) for i in receivable_ids})
    result = IssueResult()
    result.numbered = len(notices_number(receivable_ids=ids, actor=actor, language=language))
    if not render:
        return result
    cache = cache or RenderCache()
    pending = list(Notice.objects.filter(receivable_id__in=ids, document__isnull=True)
                   .exclude(status=Notice.Status.REPLACED).order_by("sort_key", "seq").values_list("pk", flat=True))
    for i in range(0, len(pending), GC_EVERY):
        with gc_paused():
            for pk in pending[i:i + GC_EVERY]:
                notice_render(notice=Notice(pk=pk), actor=actor, cache=cache)
                result.rendered += 1
    return result


GC_EVERY = 10


@contextmanager
def gc_paused():
    """WeasyPrint allocates hundreds of thousands of objects a page, so the cyclic collector keeps
    running during a render and walking the worker's long-lived objects. Paused for a few notices,
    then one young-generation pass (gc.collect(1)) frees their garbage: memory stays bounded."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect(1)


def receivables_needing_notice(source_type: str) -> list[int]:
    """Ids of the receivables of `source_type` without a current rendered notice, in printing order."""
    done = Notice.objects.filter(source_type=source_type, document__isnull=False).exclude(
        status=Notice.Status.REPLACED).values("receivable_id")
    return list(Receivable.objects.filter(source_type=source_type).exclude(pk__in=done)
                .order_by("account__parcel__cadastre", "account__party__organization_name",
                          "account__party__first_surname", "pk").values_list("pk", flat=True))


def sources_missing_notices() -> list[str]:
    """Billing runs (source types) with an open charge that has no current rendered notice."""
    done = Notice.objects.filter(document__isnull=False).exclude(status=Notice.Status.REPLACED).values(
        "receivable_id")
    return sorted(set(Receivable.objects.filter(status=Receivable.Status.OPEN).exclude(pk__in=done)
                      .values_list("source_type", flat=True).distinct()))


def notices_issue_for_source(*, source_type: str, actor=None, language: str | None = None, render: bool = True,
                             batches: bool = True) -> IssueResult:
    """Issue every missing notice of a billing run (e.g. "rolls.Roll:12"), in chunks, then — when
    all of them are there and rendered — put the unmailed ones in mailing batches."""
    ids = receivables_needing_notice(source_type)
    total = IssueResult()
    cache = RenderCache()
    for i in range(0, len(ids), CHUNK):
        part = notices_issue_chunk(receivable_ids=ids[i:i + CHUNK], actor=actor, language=language, render=render,
                                   cache=cache)
        total.numbered += part.numbered
        total.rendered += part.rendered
    if render and batches:
        for batch in mailing_batches_create(source_type=source_type, actor=actor, require_complete=True):
            mailing_batch_build_pdf(batch=batch, actor=actor)
    return total


def notices_schedule_after_commit(*, source_types: Iterable[str], actor=None, language: str | None = None) -> None:
    """Called by the roll cycle (certification, finalization): once the transaction commits, issue
    the notices of these billing runs. With a broker, a Celery fan-out renders them on the
    workers; with in-process tasks (`make run` without Redis) the notices are only numbered here
    and each PDF is rendered on its first download, so a page never waits for a whole roll."""
    source_types = list(dict.fromkeys(source_types))
    actor_id = getattr(actor, "pk", None) if _user(actor) else None

    def go():
        from assessments.notices.tasks import notices_issue_for_source_task
        from config.celery import app

        for st in source_types:
            try:
                if app.conf.task_always_eager:
                    notices_issue_for_source(source_type=st, actor=actor, language=language, render=False)
                else:
                    notices_issue_for_source_task.delay(st, language, actor_id)
            except Exception:   # the committed billing stands; the daily catch-up issues what is missing
                log.exception("could not schedule the notices of %s", st)

    transaction.on_commit(go)


def notices_schedule_for_roll(*, roll, actor=None) -> None:
    """The roll cycle's hook (certification and finalization): after commit, issue the notices of
    the roll's receivables — its lines (`rolls.Roll:<id>`) and, for Lajas, its water sales
    (`rolls.WaterSale:<id>`, LAJ-5) — that are still missing. Whichever moment billing happens,
    the notices follow it; a roll with no receivables yet issues nothing."""
    notices_schedule_after_commit(source_types=[f"rolls.Roll:{roll.pk}", f"rolls.WaterSale:{roll.pk}"], actor=actor)


# --- mailing ----------------------------------------------------------------------------------------

@transaction.atomic
def mailing_batches_create(*, source_type: str, actor, require_complete: bool = False) -> list[MailingBatch]:
    """A mailing batch per mailing method for the current, rendered notices of `source_type` that
    are in none yet. With `require_complete`, only once every receivable of the run has its
    rendered notice (what the workers' last chunk calls). Returns the batches created."""
    if require_complete and receivables_needing_notice(source_type):
        return []
    free = (Notice.objects.filter(source_type=source_type, batch__isnull=True, document__isnull=False)
            .exclude(status=Notice.Status.REPLACED))
    ids_by_method: dict[str, list[int]] = {}
    for pk, method in free.select_for_update().order_by("pk").values_list("pk", "method"):
        ids_by_method.setdefault(method, []).append(pk)
    created = []
    label = source_label(source_type) if ids_by_method else ""
    for method, ids in sorted(ids_by_method.items()):
        batch = MailingBatch.objects.create(source_type=source_type, source_label=label[:200], method=method,
                                            created_by=_user(actor))
        taken = Notice.objects.filter(pk__in=ids, batch__isnull=True).update(batch=batch)
        if not taken:   # another run took them between our read and our write
            batch.delete()
            continue
        batch.notice_count = taken
        batch.save(update_fields=["notice_count"])
        audit(actor=actor, action="notice.batch_create", target=batch,
              summary=f"Lote de envío {batch.number}: {taken} avisos por {batch.get_method_display().lower()}",
              data={"source_type": source_type, "method": method, "notices": taken})
        created.append(batch)
    return created


def batch_notices(batch: MailingBatch):
    """The notices of a batch in printing order (cadastre, then holder name, then number)."""
    return (batch.notices.select_related("document", "receivable").order_by("sort_key", "number", "revision"))


@transaction.atomic
def mailing_batch_build_pdf(*, batch: MailingBatch, actor) -> MailingBatch:
    """The print-ready PDF of a batch: its notices' PDFs merged in printing order. Built once (a
    second call returns the batch as it is)."""
    from pypdf import PdfWriter

    batch = MailingBatch.objects.select_for_update().get(pk=batch.pk)
    if batch.pdf:
        return batch
    writer = PdfWriter()
    pages = 0
    count = 0
    for notice in batch_notices(batch):
        if notice.document_id is None:
            notice = notice_render(notice=notice, actor=actor)
        with notice.document.file.open("rb") as fh:
            writer.append(io.BytesIO(fh.read()))
        pages += notice.document.page_count
        count += 1
    writer.add_metadata({"/Title": f"Lote de envío {batch.number}", "/Producer": "Cargos sobre la tierra"})
    buf = io.BytesIO()
    writer.write(buf)
    content = buf.getvalue()
    name = default_storage.save(f"notices/batches/{batch.number}.pdf", ContentFile(content))
    batch.pdf, batch.page_count, batch.notice_count = name, pages, count
    batch.pdf_sha256, batch.pdf_built_at = hashlib.sha256(content).hexdigest(), timezone.now()
    batch.save(update_fields=["pdf", "page_count", "notice_count", "pdf_sha256", "pdf_built_at"])
    audit(actor=actor, action="notice.batch_pdf", target=batch, summary=f"PDF del lote {batch.number}: {pages} páginas",
          data={"pages": pages, "notices": count, "sha256": batch.pdf_sha256})
    return batch


CSV_COLUMNS = ["notice", "cadastre", "name", "address_1", "address_2", "address_3", "address_4", "method",
               "tracking_number", "mailed_on", "delivered_on"]
# The mailing list is a file people open and fill in: its headers are Spanish words. The tracking import
# reads these and still the older English ones (files already handed out keep working).
CSV_HEADERS = {"notice": "aviso", "cadastre": "catastro", "name": "destinatarios", "address_1": "direccion_1",
               "address_2": "direccion_2", "address_3": "direccion_3", "address_4": "direccion_4",
               "method": "forma_de_envio", "tracking_number": "numero_de_rastreo", "mailed_on": "enviado_el",
               "delivered_on": "entregado_el", "returned_on": "devuelto_el"}
_CSV_COLUMN_OF = {**{k: k for k in CSV_HEADERS}, **{v: k for k, v in CSV_HEADERS.items()}}


def mailing_csv(batch: MailingBatch) -> str:
    """The mailing list of a batch: one row per notice, addressed to all its addressees at the
    first addressee's address (the largest share); tracking number and dates blank to fill in."""
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow([CSV_HEADERS[c] for c in CSV_COLUMNS])
    for notice in batch_notices(batch):
        names = " y ".join(a.get("name", "") for a in notice.addressees) or _("Dueño de récord")
        first = notice.addressees[0] if notice.addressees else {}
        lines = list(first.get("address_lines") or [])
        if first.get("attention"):
            lines.insert(0, f"A/C {first['attention']}")
        lines = (lines + ["", "", "", ""])[:4]
        cadastre = notice.sort_key if not notice.sort_key.startswith("~") else ""
        writer.writerow([notice.display_number, cadastre, names[:200], *lines, notice.get_method_display(),
                         notice.tracking_number, f"{notice.mailed_on:%d/%m/%Y}" if notice.mailed_on else "",
                         f"{notice.delivered_on:%d/%m/%Y}" if notice.delivered_on else ""])
    return out.getvalue()


class MailingError(ValidationError):
    """Mailing facts refused; `rows` holds (row, column, message) for a CSV import."""

    def __init__(self, message, rows: list[tuple[int, str, str]] | None = None):
        super().__init__(message)
        self.rows = rows or []


def _mailing_errors(notice: Notice, *, tracking: str | None, mailed: date | None, delivered: date | None,
                    returned: date | None, today: date) -> dict[str, str]:
    """What is wrong with recording these facts on `notice` (blank = leave as it is)."""
    errors: dict[str, str] = {}
    if notice.status == Notice.Status.REPLACED:
        return {"notice": _("El aviso fue sustituido por una corrección; registre el envío de la corrección.")}
    mailed_final = mailed or notice.mailed_on
    if mailed is not None:
        if notice.mailed_on and notice.mailed_on != mailed:
            errors["mailed_on"] = _("Ya se registró el envío el %(d)s.") % {"d": notice.mailed_on.strftime("%d/%m/%Y")}
        elif mailed < notice.issued_on:
            errors["mailed_on"] = _("No puede enviarse antes de la fecha del aviso (%(d)s).") % {
                "d": notice.issued_on.strftime("%d/%m/%Y")}
        elif mailed > today:
            errors["mailed_on"] = _("La fecha de envío no puede ser futura.")
    for name, value, current in (("delivered_on", delivered, notice.delivered_on),
                                 ("returned_on", returned, notice.returned_on)):
        if value is None:
            continue
        if current and current != value:
            errors[name] = _("Ya se registró el %(d)s.") % {"d": current.strftime("%d/%m/%Y")}
        elif mailed_final is None:
            errors[name] = _("Registre primero la fecha de envío.")
        elif value < mailed_final:
            errors[name] = _("No puede ser anterior al envío (%(d)s).") % {"d": mailed_final.strftime("%d/%m/%Y")}
        elif value > today:
            errors[name] = _("La fecha no puede ser futura.")
    if (delivered or notice.delivered_on) and (returned or notice.returned_on):
        errors["returned_on"] = _("Un aviso entregado no puede constar también como devuelto.")
    if tracking is not None:
        tracking = tracking.strip()
        if len(tracking) > 40 or (tracking and not tracking.replace("-", "").replace(" ", "").isalnum()):
            errors["tracking_number"] = _("Número de rastreo inválido (letras y números, hasta 40).")
        elif notice.tracking_number and tracking and tracking != notice.tracking_number and notice.delivered_on:
            errors["tracking_number"] = _("El aviso ya consta entregado con el rastreo %(t)s.") % {
                "t": notice.tracking_number}
    if (notice.method == MailingMethod.CERTIFIED_RR and mailed_final and not (tracking or notice.tracking_number)
            and "mailed_on" not in errors):
        errors["tracking_number"] = _("El correo certificado (TID-4, FRA-8) necesita su número de rastreo.")
    return errors


def _mailing_apply(notice: Notice, *, tracking, mailed, delivered, returned, actor) -> bool:
    before = (notice.tracking_number, notice.mailed_on, notice.delivered_on, notice.returned_on, notice.status)
    if tracking is not None and tracking.strip():
        notice.tracking_number = tracking.strip()
    notice.mailed_on = mailed or notice.mailed_on
    notice.delivered_on = delivered or notice.delivered_on
    notice.returned_on = returned or notice.returned_on
    notice.status = (Notice.Status.DELIVERED if notice.delivered_on else Notice.Status.RETURNED
                     if notice.returned_on else Notice.Status.MAILED if notice.mailed_on else Notice.Status.ISSUED)
    after = (notice.tracking_number, notice.mailed_on, notice.delivered_on, notice.returned_on, notice.status)
    if after == before:
        return False
    notice.save(update_fields=["tracking_number", "mailed_on", "delivered_on", "returned_on", "status"])
    audit(actor=actor, action="notice.mailing", target=notice, summary=f"Aviso {notice.display_number}: "
          f"{notice.get_status_display().lower()}",
          data={"tracking_number": notice.tracking_number,
                "mailed_on": notice.mailed_on.isoformat() if notice.mailed_on else None,
                "delivered_on": notice.delivered_on.isoformat() if notice.delivered_on else None,
                "returned_on": notice.returned_on.isoformat() if notice.returned_on else None})
    return True


@transaction.atomic
def notice_mailing_record(*, notice: Notice, actor, tracking_number: str | None = None, mailed_on: date | None = None,
                          delivered_on: date | None = None, returned_on: date | None = None,
                          today: date | None = None) -> Notice:
    """Record how a notice went out and came back. A date once recorded stands (recording it again
    changes nothing; another date is refused). The delivery date is the notification date of a
    certified notice (selectors.notification_date)."""
    notice = Notice.objects.select_for_update().get(pk=notice.pk)
    errors = _mailing_errors(notice, tracking=tracking_number, mailed=mailed_on, delivered=delivered_on,
                             returned=returned_on, today=today or timezone.localdate())
    if errors:
        raise MailingError(errors)
    if _mailing_apply(notice, tracking=tracking_number, mailed=mailed_on, delivered=delivered_on,
                      returned=returned_on, actor=actor):
        _notice_rounds_mailed([notice], actor=actor)
    return notice


def _parse_date(text: str) -> date:
    text = (text or "").strip()
    for fmt in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError(text)


@dataclass
class TrackingImport:
    rows: int
    changed: int


@transaction.atomic
def mailing_tracking_import(*, batch: MailingBatch, text: str, actor, today: date | None = None) -> TrackingImport:
    """Tracking numbers and dates from a CSV (the batch's mailing list, filled in). All or nothing:
    any error in any row refuses the whole file, listing each (row, column, message)."""
    today = today or timezone.localdate()
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    headers = [h.strip() for h in (reader.fieldnames or [])]
    # Spanish headers (the mailing list's) or the older English ones; errors name the column as the file does.
    spanish = "aviso" in headers
    shown = (lambda column: CSV_HEADERS.get(column, column)) if spanish else (lambda column: column)
    if "notice" not in headers and not spanish:
        raise MailingError(_("El archivo necesita la columna «aviso» (número de aviso)."),
                           rows=[(1, "aviso", _("falta la columna"))])
    notices = {n.display_number: n for n in batch.notices.select_for_update().all()}
    errors: list[tuple[int, str, str]] = []
    plan = []
    seen = set()
    for n, raw in enumerate(reader, start=2):
        row = {_CSV_COLUMN_OF.get((k or "").strip(), (k or "").strip()): (v or "").strip() for k, v in raw.items()}
        if not any(row.values()):
            continue
        number = row.get("notice", "")
        notice = notices.get(number)
        if notice is None:
            errors.append((n, shown("notice"), _("el aviso %(n)s no es de este lote") % {"n": number or "—"}))
            continue
        if number in seen:
            errors.append((n, shown("notice"), _("aviso repetido en el archivo")))
            continue
        seen.add(number)
        values = {}
        for column in ("mailed_on", "delivered_on", "returned_on"):
            cell = row.get(column, "")
            try:
                values[column] = _parse_date(cell) if cell else None
            except ValueError:
                errors.append((n, shown(column),
                               _("fecha inválida «%(v)s» (use AAAA-MM-DD o DD/MM/AAAA)") % {"v": cell}))
                values[column] = None
        if any(e[0] == n for e in errors):
            continue
        tracking = row.get("tracking_number") or None
        problems = _mailing_errors(notice, tracking=tracking, mailed=values["mailed_on"],
                                   delivered=values["delivered_on"], returned=values["returned_on"], today=today)
        errors.extend((n, shown(column), str(message)) for column, message in problems.items())
        plan.append((notice, tracking, values))
    if errors:
        raise MailingError(_("El archivo tiene %(n)s error(es); no se registró nada.") % {"n": len(errors)},
                           rows=errors)
    changed = []
    for notice, tracking, values in plan:
        if _mailing_apply(notice, tracking=tracking, mailed=values["mailed_on"], delivered=values["delivered_on"],
                          returned=values["returned_on"], actor=actor):
            changed.append(notice)
    if changed:
        _notice_rounds_mailed(changed, actor=actor)
        audit(actor=actor, action="notice.tracking_import", target=batch,
              summary=f"Lote {batch.number}: {len(changed)} avisos actualizados desde CSV",
              data={"rows": len(plan), "changed": len(changed)})
    return TrackingImport(rows=len(plan), changed=len(changed))


def _notice_rounds_mailed(notices: list[Notice], *, actor) -> None:
    """SID-2 / TID-4: a billing run whose receivables name their notice round
    (`breakdown["notice_round"] = {"kind": "SID"|"TID", "id": …}`) records the round as mailed —
    meeting its work-queue clock — once every current notice of that round is mailed, on the
    last mailing date. Runs without a round leave the dates on the notices only."""
    refs = {}
    for notice in notices:
        ref = (notice.receivable.breakdown or {}).get("notice_round")
        if isinstance(ref, dict) and ref.get("kind") in ("SID", "TID") and ref.get("id"):
            refs[(ref["kind"], int(ref["id"]))] = notice.source_type
    if not refs:
        return
    from districts.improvement import services as improvement
    from districts.models import SidNoticeRound, TidNoticeRound

    for (kind, round_id), source_type in refs.items():
        same = (Notice.objects.filter(source_type=source_type,
                                      receivable__breakdown__notice_round__id=round_id)
                .exclude(status=Notice.Status.REPLACED))
        if same.filter(mailed_on__isnull=True).exists():
            continue
        last = max(same.values_list("mailed_on", flat=True))
        model = SidNoticeRound if kind == "SID" else TidNoticeRound
        notice_round = model.objects.filter(pk=round_id, mailed_on__isnull=True).first()
        if notice_round is None:
            continue
        if kind == "SID":
            improvement.sid_notice_mailed(actor=actor, notice_round=notice_round, mailed_on=last)
        else:
            improvement.tid_notice_mailed(actor=actor, notice_round=notice_round, mailed_on=last)


def notice_document(*, notice: Notice, actor=None):
    """The notice's PDF (core Document), rendered now if the notice was numbered without one."""
    if notice.document_id is None:
        notice = notice_render(notice=notice, actor=actor)
    return notice.document
