"""Import a register file: a dry run that says what would happen, then all of it or nothing.

`import_preview` reads and validates without writing. `import_apply` takes the same file and the
hash the preview showed, validates again (the register may have changed since) and writes every
row through `record_save` in one transaction; one invalid row and nothing is written.

Each row is checked as the staff forms check it: every cell is read by its column's parser, the
record is built and `full_clean()`ed (field validators, model `clean()`, constraints). Then the
checks that need the whole file: a natural key used twice, representatives created by the same
file, and owners' current shares of a parcel adding up to more than 100 %.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from core.audit import audit
from districts.imports.columns import (
    ID_REF_RE,
    CellError,
    Column,
    ImportKind,
    Pending,
    Resolver,
    cell_text,
    get_kind,
    match_headers,
)
from districts.imports.readers import MAX_BYTES, ReaderError, read_sheet
from districts.models import Ownership, Party
from districts.services import record_save

CREATE, UPDATE, UNCHANGED, REJECT = "create", "update", "unchanged", "reject"
PROGRESS_EVERY = 100  # rows between two progress reports of a background import


class RowError(NamedTuple):
    """One problem: the spreadsheet row (header = 1), the column as the file names it, the value."""

    row: int
    column: str
    value: str
    message: str


@dataclass
class RowOutcome:
    row: int
    key: str
    action: str = CREATE
    errors: list[RowError] = field(default_factory=list)
    changes: list[tuple[str, str, str]] = field(default_factory=list)  # (column, before, after)
    instance: models.Model | None = field(default=None, repr=False)
    natural_key: tuple | None = field(default=None, repr=False)
    pending_representative: str = ""
    texts: dict[str, str] = field(default_factory=dict, repr=False)  # the cells as read, by column name


@dataclass
class ImportReport:
    kind: str
    kind_label: str
    file_name: str
    sha256: str
    file_format: str = ""
    rows: list[RowOutcome] = field(default_factory=list)
    file_errors: list[RowError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    mapping: dict[str, str] = field(default_factory=dict, repr=False)  # column name → header in the file

    def _with(self, action: str) -> list[RowOutcome]:
        return [r for r in self.rows if r.action == action]

    @property
    def created(self) -> list[RowOutcome]:
        return self._with(CREATE)

    @property
    def updated(self) -> list[RowOutcome]:
        return self._with(UPDATE)

    @property
    def unchanged(self) -> list[RowOutcome]:
        return self._with(UNCHANGED)

    @property
    def rejected(self) -> list[RowOutcome]:
        return self._with(REJECT)

    @property
    def errors(self) -> list[RowError]:
        row_errors = [e for r in self.rows for e in r.errors]
        return self.file_errors + sorted(row_errors, key=lambda e: e.row)

    @property
    def is_valid(self) -> bool:
        return bool(self.rows) and not self.file_errors and not self.rejected

    @property
    def writes(self) -> int:
        return len(self.created) + len(self.updated)

    def counts(self) -> dict[str, int]:
        return {"rows": len(self.rows), "created": len(self.created), "updated": len(self.updated),
                "unchanged": len(self.unchanged), "rejected": len(self.rejected)}


class ImportRefused(Exception):
    """The file was not applied; nothing was written."""

    def __init__(self, message: str, report: ImportReport | None = None):
        super().__init__(message)
        self.message = message
        self.report = report


class ImportHashMismatch(ImportRefused):
    pass


class ImportInvalid(ImportRefused):
    pass


def content_hash(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def read_upload(uploaded_file) -> tuple[bytes, str]:
    """Bytes and name of a Django upload, an open file or raw bytes."""
    if isinstance(uploaded_file, bytes | bytearray):
        return bytes(uploaded_file), ""
    if hasattr(uploaded_file, "seek"):
        uploaded_file.seek(0)
    # One byte past the limit is enough for read_sheet to refuse it; the rest is never read.
    content = uploaded_file.read(MAX_BYTES + 1)
    return content, getattr(uploaded_file, "name", "") or ""


# ----------------------------------------------------------------------------- public API

def import_preview(kind: str, uploaded_file) -> ImportReport:
    """What the file would create, update and reject. Writes nothing."""
    content, name = read_upload(uploaded_file)
    return _plan(get_kind(kind), content, name)


def import_apply(kind: str, uploaded_file, actor, expected_hash: str,
                 progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Apply a previewed file: the same bytes (by SHA-256), still valid, all rows or none.

    `progress(written, to_write)` is told every PROGRESS_EVERY rows (the background job's page).
    """
    spec = get_kind(kind)
    content, name = read_upload(uploaded_file)
    digest = content_hash(content)
    if not expected_hash or digest != expected_hash:
        raise ImportHashMismatch(_("El archivo no es el que se revisó (su huella no coincide). Revíselo de nuevo "
                                   "antes de confirmar."))
    with transaction.atomic():
        report = _plan(spec, content, name)
        if not report.is_valid:
            raise ImportInvalid(_("El archivo ya no es válido; no se guardó nada."), report)
        _write(spec, report, actor, _Progress(progress, report.writes))
        audit(actor=actor, action=f"{spec.audit_action}.file", summary=f"{spec.key}: {name} ({digest[:12]})",
              data={"kind": spec.key, "file": name, "sha256": digest, **report.counts()})
    return report


# ----------------------------------------------------------------------------- planning

def _plan(spec: ImportKind, content: bytes, name: str) -> ImportReport:
    report = ImportReport(kind=spec.key, kind_label=str(spec.label), file_name=name, sha256=content_hash(content))
    try:
        sheet = read_sheet(content, name)
    except ReaderError as exc:
        report.file_errors.append(RowError(1, "", "", exc.message))
        return report
    report.file_format = sheet.format

    mapping, unknown, repeated = match_headers(spec, sheet.headers)
    report.mapping = mapping
    for header in repeated:
        report.file_errors.append(RowError(1, header, header, _("Columna repetida.")))
    for col_name in spec.key_columns:
        if col_name not in mapping:
            report.file_errors.append(RowError(1, col_name, "", _("Falta la columna, que identifica cada fila.")))
    if unknown:
        report.warnings.append(_("Columnas que no se usan: %(cols)s.") % {"cols": ", ".join(unknown)})
    if not sheet.rows:
        report.file_errors.append(RowError(1, "", "", _("El archivo no tiene filas de datos.")))
    if report.file_errors:
        return report

    ctx = Resolver()
    for col_name, header in mapping.items():
        col = spec.by_name[col_name]
        if col.reference:
            ctx.preload(col.reference, (cell_text(values.get(header)) for _n, values in sheet.rows))

    parsed = [_parse_row(spec, mapping, number, values, ctx) for number, values in sheet.rows]
    report.rows = [outcome for outcome, _values in parsed]

    # Natural keys: once per file, and each key finds at most one record.
    seen: dict[tuple, int] = {}
    for outcome, _values in parsed:
        key = outcome.natural_key
        if key is None:
            continue
        if key in seen:
            _reject(outcome, _first_key_header(spec, mapping), outcome.key,
                    _("Clave repetida: ya aparece en la fila %(row)s.") % {"row": seen[key]})
        else:
            seen[key] = outcome.row
    existing = spec.find_existing([o.natural_key for o, _v in parsed if o.natural_key is not None and not o.errors])
    file_refs = {o.natural_key[1]: o for o, _v in parsed
                 if spec.key == "parties" and o.natural_key and o.natural_key[0] == "ref"}

    for outcome, values in parsed:
        if outcome.errors:
            outcome.action = REJECT
            continue
        _build(spec, mapping, outcome, values, existing.get(outcome.natural_key, []), file_refs)

    # Two keys that name the same record (a party by its reference and by "#id").
    first_row_of: dict[int, int] = {}
    for outcome in report.rows:
        pk = outcome.instance.pk if outcome.instance is not None else None
        if pk is None or outcome.errors:
            continue
        if pk in first_row_of:
            _reject(outcome, _first_key_header(spec, mapping), outcome.key,
                    _("La fila %(row)s ya se refiere al mismo registro.") % {"row": first_row_of[pk]})
        else:
            first_row_of[pk] = outcome.row

    if spec.key == "parties":
        _check_representatives(report, mapping, file_refs)
    if spec.key == "ownerships":
        _check_shares(report, mapping)
    for outcome in report.rows:
        if outcome.errors:
            outcome.action = REJECT
    return report


def _first_key_header(spec: ImportKind, mapping: dict[str, str]) -> str:
    return mapping.get(spec.key_columns[0], spec.key_columns[0])


def _reject(outcome: RowOutcome, column: str, value: Any, message: str) -> None:
    outcome.errors.append(RowError(outcome.row, column, cell_text(value), message))
    outcome.action = REJECT


def _parse_row(spec: ImportKind, mapping: dict[str, str], number: int, raw: dict[str, Any],
               ctx: Resolver) -> tuple[RowOutcome, dict[str, Any]]:
    """Read every mapped cell; the outcome carries the cell errors and the natural key."""
    texts = {name: cell_text(raw.get(header)) for name, header in mapping.items()}
    outcome = RowOutcome(row=number, key=spec.key_display({}, texts), texts=texts)
    values: dict[str, Any] = {}
    for col_name, header in mapping.items():
        col = spec.by_name[col_name]
        try:
            value = col.parse(raw.get(header), ctx)
        except CellError as exc:
            _reject(outcome, header, raw.get(header), exc.message)
            continue
        if col.required and value in (None, ""):
            _reject(outcome, header, "", _("Dato obligatorio."))
            continue
        values[col_name] = value
    if not outcome.errors:
        outcome.natural_key = spec.row_key(values)
    return outcome, values


def _display(col: Column, instance) -> str:
    try:
        return cell_text(col.value_of(instance))
    except (AttributeError, ValueError, TypeError, models.ObjectDoesNotExist):
        return ""


def _build(spec: ImportKind, mapping: dict[str, str], outcome: RowOutcome, values: dict[str, Any],
           matches: list, file_refs: dict[str, RowOutcome]) -> None:
    """Create or update the record in memory, run full_clean(), and note what changes."""
    if len(matches) > 1:
        _reject(outcome, _first_key_header(spec, mapping), outcome.key,
                _("Esa clave coincide con %(n)s registros; corríjalo en el sistema primero.") % {"n": len(matches)})
        return
    instance = matches[0] if matches else None
    if instance is None:
        ref = values.get("ref") if spec.key == "parties" else None
        if ref and ID_REF_RE.match(ref):  # "#12" only names an existing party
            _reject(outcome, mapping["ref"], ref, _("No hay ninguna persona o entidad con ese número interno."))
            return
        missing = [c for c in spec.columns if c.required and c.name not in mapping]
        for col in missing:
            _reject(outcome, col.name, "", _("Falta la columna, obligatoria para crear un registro nuevo."))
        if missing:
            return
        instance = spec.new_instance(values)
        outcome.action = CREATE
    else:
        outcome.action = UPDATE
    before = {name: _display(spec.by_name[name], instance) for name in mapping} if outcome.action == UPDATE else {}

    for col_name, value in values.items():
        col = spec.by_name[col_name]
        if spec.key == "parties" and col_name == "ref" and ID_REF_RE.match(value or ""):
            continue  # the party keeps having no reference
        if isinstance(value, Pending):
            if value.ref not in file_refs:
                _reject(outcome, mapping[col_name], value.ref,
                        _("No hay ninguna persona o entidad con esa referencia en el registro ni en este archivo."))
                continue
            outcome.pending_representative = value.ref
            value = None
        _assign(instance, col, value)

    if outcome.errors:
        return
    if outcome.action == UPDATE:
        after = {name: _display(spec.by_name[name], instance) for name in mapping}
        if outcome.pending_representative:
            after["representative_ref"] = outcome.pending_representative
        outcome.changes = [(mapping[n], before[n], after[n]) for n in mapping if not _same(before[n], after[n])]
        if not outcome.changes:  # the record stays as it is: nothing to validate or write
            outcome.action = UNCHANGED
            outcome.instance = instance
            return
    try:
        _validate(spec, instance)
    except ValidationError as exc:
        _add_validation_errors(spec, mapping, outcome, exc)
        return
    outcome.instance = instance


def _validate(spec: ImportKind, instance) -> None:
    """The model's full_clean(), less the per-row queries this module does once for the whole file.

    Foreign keys were read from the database by the resolver; uniqueness is the natural key,
    checked against the register and within the file; the check constraints (evaluated by a
    query each) are mirrored by the models' `clean()` and the percentage parser. Field
    validators and `clean()` run as usual. When the file is applied `record_save` runs the
    complete full_clean() on every row it writes, and any error still undoes the whole file.
    """
    resolved = [c.field for c in spec.columns if c.reference]
    instance.full_clean(exclude=resolved, validate_unique=False, validate_constraints=False)


def _same(before: str, after: str) -> bool:
    if before == after:
        return True
    try:
        return Decimal(before) == Decimal(after)
    except ArithmeticError:
        return False


def _assign(instance, col: Column, value: Any) -> None:
    """Set a field; a blank cell means the field's default, or empty / none when it has none."""
    model_field = instance._meta.get_field(col.field)
    if value is None or value == "":
        if model_field.has_default():
            value = model_field.get_default()
        elif model_field.null:
            value = None
        elif isinstance(model_field, models.CharField | models.TextField):
            value = ""
        else:
            value = None
    setattr(instance, col.field, value)


def _add_validation_errors(spec: ImportKind, mapping: dict[str, str], outcome: RowOutcome,
                           exc: ValidationError) -> None:
    by_field = {c.field: c for c in spec.columns}
    for field_name, messages in exc.message_dict.items():
        col = by_field.get(field_name)
        if col is not None:
            header, value = mapping.get(col.name, col.name), outcome.texts.get(col.name, "")
        elif field_name == NON_FIELD_ERRORS:  # whole-record rules (constraints): name the key columns
            header, value = " + ".join(mapping.get(n, n) for n in spec.key_columns), outcome.key
        else:
            header, value = field_name, ""
        for message in dict.fromkeys(messages):
            _reject(outcome, header, value, message)


def _check_representatives(report: ImportReport, mapping: dict[str, str], file_refs: dict[str, RowOutcome]) -> None:
    for outcome in report.rows:
        ref = outcome.pending_representative
        if not ref or outcome.errors:
            continue
        header = mapping["representative_ref"]
        own_ref = outcome.natural_key[1] if outcome.natural_key else None
        if ref == own_ref:
            _reject(outcome, header, ref, _("Una persona o entidad no puede ser su propio representante."))
        elif file_refs[ref].action == REJECT or file_refs[ref].errors:
            _reject(outcome, header, ref,
                    _("El representante se crea en la fila %(row)s, que tiene errores.") % {"row": file_refs[ref].row})


def _check_shares(report: ImportReport, mapping: dict[str, str]) -> None:
    """Current owners (no end date) of a parcel may not hold more than 100 % together."""
    rows_by_parcel: dict[int, list[RowOutcome]] = defaultdict(list)
    for outcome in report.rows:
        if outcome.instance is not None and not outcome.errors:
            rows_by_parcel[outcome.instance.parcel_id].append(outcome)
    if not rows_by_parcel:
        return
    in_file = {o.instance.pk for rows in rows_by_parcel.values() for o in rows if o.instance.pk}
    totals: dict[int, Decimal] = defaultdict(Decimal)
    for own in Ownership.objects.filter(parcel_id__in=rows_by_parcel, end_date__isnull=True).exclude(pk__in=in_file):
        totals[own.parcel_id] += own.share_pct
    for parcel_id, rows in rows_by_parcel.items():
        total = totals[parcel_id] + sum((o.instance.share_pct for o in rows if o.instance.end_date is None),
                                        Decimal("0"))
        if total > Decimal("100"):
            header = mapping.get("share_pct", "share_pct")
            for outcome in rows:
                if outcome.instance.end_date is None:
                    _reject(outcome, header, outcome.instance.share_pct,
                            _("Los dueños actuales de %(cadastre)s sumarían %(total)s %% (máximo 100 %%).")
                            % {"cadastre": outcome.instance.parcel.cadastre, "total": f"{total.normalize():f}"})


# ----------------------------------------------------------------------------- writing

class _Progress:
    """Counts saved rows and tells the caller now and then (a no-op without a callback)."""

    def __init__(self, callback: Callable[[int, int], None] | None, total: int) -> None:
        self.callback, self.total, self.done = callback, total, 0

    def step(self) -> None:
        self.done += 1
        if self.callback is not None and (self.done % PROGRESS_EVERY == 0 or self.done == self.total):
            self.callback(self.done, self.total)


def _save(spec: ImportKind, report: ImportReport, outcome: RowOutcome, actor, progress: _Progress | None = None,
          ) -> None:
    try:
        record_save(actor=actor, instance=outcome.instance, action=spec.audit_action)
    except ValidationError as exc:  # the full validation found what the preview's could not
        _add_validation_errors(spec, report.mapping, outcome, exc)
        raise ImportInvalid(_("El archivo ya no es válido; no se guardó nada."), report)
    except IntegrityError:  # someone saved the same natural key meanwhile
        _reject(outcome, _first_key_header(spec, report.mapping), outcome.key,
                _("Otro usuario guardó un registro con esta clave mientras se importaba; revise el archivo de nuevo."))
        raise ImportInvalid(_("El archivo ya no es válido; no se guardó nada."), report)
    if progress is not None:
        progress.step()


def _write(spec: ImportKind, report: ImportReport, actor, progress: _Progress | None = None) -> None:
    """Save created and updated rows in file order; representatives created by the file go first."""
    todo = [o for o in report.rows if o.action in (CREATE, UPDATE)]
    if spec.key != "parties":
        for outcome in todo:
            _save(spec, report, outcome, actor, progress)
        return
    saved: dict[str, Party] = {}  # parties this file creates, by reference
    fix_later: list[RowOutcome] = []
    while todo:
        ready = [o for o in todo if not o.pending_representative or o.pending_representative in saved]
        if not ready:  # representatives that name each other: save one first, link it after
            ready, fix_later = todo[:1], [*fix_later, todo[0]]
        for outcome in ready:
            if outcome.pending_representative in saved:
                outcome.instance.representative = saved[outcome.pending_representative]
            _save(spec, report, outcome, actor, progress)
            if outcome.natural_key[0] == "ref":
                saved[outcome.natural_key[1]] = outcome.instance
        todo = [o for o in todo if o not in ready]
    for outcome in fix_later:
        outcome.instance.representative = saved[outcome.pending_representative]
        _save(spec, report, outcome, actor)


# ----------------------------------------------------------------------------- export

def export_download(kind: str, fmt: str, *, actor, template: bool = False) -> tuple[bytes, str]:
    """The register table as a file, with an audit entry (exports carry personal data)."""
    from districts.imports.exporters import export_file

    spec = get_kind(kind)
    content, content_type = export_file(spec.key, fmt, template=template)
    if not template:
        audit(actor=actor, action="import.export", summary=f"{spec.key}.{fmt}", data={"kind": spec.key, "format": fmt})
    return content, content_type
