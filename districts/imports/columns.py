"""What each import kind reads and writes: its columns, how a cell is read, and its natural key.

One `ImportKind` per register table. A column names the model field it sets, whether a new row
needs it, how a cell becomes a Python value (`parse`) and how a record's value is written back
(`export`), so an export re-imports cleanly. Natural keys decide update-or-create:

- parties:      `ref` (Party.ref), or `#<id>` for a party that has no reference yet
- parcels:      `cadastre`
- ownerships:   `cadastre` + `party_ref` + `start_date`
- memberships:  `district` + `cadastre`
- water:        `cadastre` + `fiscal_year` + `semester`

Headers are matched without regard to case, accents or spaces, and Spanish aliases are accepted
("catastro", "municipio", ...). Exports use the canonical names.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# A text cell starting with one of FORMULA_CHARS is a formula to a spreadsheet; exports put a "'" before it.
from core.spreadsheets import FORMULA_CHARS
from core.text import fold
from districts.models import District, Membership, Municipality, Ownership, Parcel, Party, WaterDelivery

TRUE_WORDS = frozenset({"si", "s", "yes", "y", "true", "verdadero", "1", "x"})
FALSE_WORDS = frozenset({"no", "n", "false", "falso", "0"})
REF_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,29}$")
ID_REF_RE = re.compile(r"^#(\d{1,12})$")
THOUSANDS_RE = re.compile(r"^-?\d{1,3}(,\d{3})+(\.\d+)?$")
DMY_RE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


class CellError(Exception):
    """A cell whose value cannot be read; the message is shown to staff as is."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Pending:
    """A reference to a party that is not in the register yet but may be created by the same file."""

    def __init__(self, ref: str):
        self.ref = ref


# ----------------------------------------------------------------------------- cell readers

def cell_text(value: Any) -> str:
    """A cell as text, trimmed; undoes the exporter's formula guard ("'=..." → "=...")."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "sí" if value else "no"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, date):
        return value.isoformat()
    text = str(value).strip()
    if len(text) > 1 and text[0] == "'" and text[1] in FORMULA_CHARS:
        text = text[1:]
    return text


def parse_text(value: Any, ctx: Resolver) -> str:
    return cell_text(value)


def parse_decimal(value: Any, ctx: Resolver) -> Decimal | None:
    if isinstance(value, bool):
        raise CellError(_("No es un número."))
    if isinstance(value, int | Decimal):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    text = cell_text(value).replace(" ", "").replace("$", "")
    if not text:
        return None
    if THOUSANDS_RE.match(text):
        text = text.replace(",", "")
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise CellError(_("No es un número (use punto decimal, p. ej. 12.5)."))
    if not number.is_finite():
        raise CellError(_("No es un número (use punto decimal, p. ej. 12.5)."))
    return number


def parse_percent(value: Any, ctx: Resolver) -> Decimal | None:
    number = parse_decimal(value, ctx)
    if number is not None and not Decimal("0") <= number <= Decimal("100"):
        raise CellError(_("Debe ser un porcentaje entre 0 y 100."))
    return number


def parse_int(value: Any, ctx: Resolver) -> int | None:
    number = parse_decimal(value, ctx)
    if number is None:
        return None
    if number != number.to_integral_value():
        raise CellError(_("Debe ser un número entero."))
    return int(number)


def parse_date(value: Any, ctx: Resolver) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = cell_text(value)
    if not text:
        return None
    try:
        if m := DMY_RE.match(text):
            return date(int(m[3]), int(m[2]), int(m[1]))
        return date.fromisoformat(text[:10] if len(text) > 10 and text[10] in "T " else text)
    except ValueError:
        raise CellError(_("Fecha inválida: use AAAA-MM-DD (p. ej. 2025-07-01) o DD/MM/AAAA."))


def parse_bool(value: Any, ctx: Resolver) -> bool | None:
    if isinstance(value, bool):
        return value
    text = fold(cell_text(value))
    if not text:
        return None
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise CellError(_("Escriba «sí» o «no»."))


def choice_parser(choices: type[models.TextChoices]) -> Callable[[Any, Resolver], str | None]:
    """Accepts the code (AGRICULTURAL) or the Spanish label (Agrícola), case- and accent-blind."""
    by_word = {}
    for code, label in choices.choices:
        by_word[fold(code)] = code
        by_word[fold(str(label))] = code

    def parse(value: Any, ctx: Resolver) -> str | None:
        text = fold(cell_text(value))
        if not text:
            return None
        try:
            return by_word[text]
        except KeyError:
            raise CellError(_("Valor no permitido; use uno de: %(codes)s.")
                            % {"codes": ", ".join(code for code, _label in choices.choices)})

    return parse


def parse_zip(value: Any, ctx: Resolver) -> str:
    """A ZIP typed as a number in a spreadsheet loses its leading zeros: 667 → 00667."""
    if isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer():
        return f"{int(value):05d}"
    return cell_text(value)


def parse_fiscal_year(value: Any, ctx: Resolver) -> int | None:
    text = cell_text(value).upper().replace(" ", "")
    for prefix in ("FY", "AF"):
        text = text.removeprefix(prefix)
    year = parse_int(text, ctx)
    if year is not None and not 1950 <= year <= 2100:
        raise CellError(_("Año fiscal fuera de rango (p. ej. 2026)."))
    return year


def parse_semester(value: Any, ctx: Resolver) -> int | None:
    text = cell_text(value).upper().replace(" ", "").removeprefix("S")
    if not text:
        return None
    if text in ("1", "2"):
        return int(text)
    raise CellError(_("Semestre inválido: use 1 (jul–dic) o 2 (ene–jun)."))


def parse_ref(value: Any, ctx: Resolver) -> str | None:
    text = cell_text(value)
    if not text:
        return None
    if ID_REF_RE.match(text):
        return text
    if not REF_RE.match(text):
        raise CellError(_("Referencia inválida: hasta 30 letras, dígitos o . _ / - (p. ej. P-000123)."))
    return text


def parse_municipality(value: Any, ctx: Resolver) -> Municipality | None:
    text = cell_text(value)
    return ctx.municipality(text) if text else None


def parse_parcel(value: Any, ctx: Resolver) -> Parcel | None:
    text = cell_text(value)
    return ctx.parcel(text) if text else None


def parse_party(value: Any, ctx: Resolver) -> Party | None:
    ref = parse_ref(value, ctx)
    return ctx.party(ref) if ref else None


def parse_party_or_pending(value: Any, ctx: Resolver) -> Party | Pending | None:
    """A representative may be created by an earlier or later row of the same file."""
    ref = parse_ref(value, ctx)
    if not ref:
        return None
    try:
        return ctx.party(ref)
    except CellError:
        if ID_REF_RE.match(ref):
            raise
        return Pending(ref)


def parse_district(value: Any, ctx: Resolver) -> District | None:
    text = cell_text(value)
    return ctx.district(text) if text else None


# ----------------------------------------------------------------------------- exporters of values

def party_ref(party: Party | None) -> str:
    if party is None:
        return ""
    return party.ref or f"#{party.pk}"


def yes_no(value: bool) -> str:
    return "sí" if value else "no"


# ----------------------------------------------------------------------------- references

class Resolver:
    """Looks up the records a file refers to, loading each kind in bulk once per file."""

    def __init__(self):
        self._municipalities: dict[str, Municipality] | None = None
        self._parcels: dict[str, Parcel] = {}
        self._parties_by_ref: dict[str, Party] = {}
        self._parties_by_id: dict[int, Party] = {}
        self._districts: dict[str, District] = {}

    def preload(self, target: str, texts: Iterable[str]) -> None:
        texts = {t for t in texts if t}
        if not texts:
            return
        if target == "parcel":
            for p in Parcel.objects.select_related("municipality").filter(cadastre__in=texts):
                self._parcels[p.cadastre] = p
        elif target == "party":
            ids = {int(m[1]) for t in texts if (m := ID_REF_RE.match(t))}
            refs = texts - {f"#{i}" for i in ids}
            for p in Party.objects.filter(models.Q(ref__in=refs) | models.Q(pk__in=ids)):
                self._remember_party(p)
        elif target == "district":
            for d in District.objects.filter(code__in=texts):
                self._districts[d.code] = d

    def _remember_party(self, party: Party) -> None:
        self._parties_by_id[party.pk] = party
        if party.ref:
            self._parties_by_ref[party.ref] = party

    def municipality(self, text: str) -> Municipality:
        if self._municipalities is None:
            self._municipalities = {}
            for m in Municipality.objects.all():
                self._municipalities[fold(m.name)] = m
                self._municipalities[m.code] = m
        found = self._municipalities.get(fold(text)) or self._municipalities.get(text.zfill(3))
        if found is None:
            raise CellError(_("No es un municipio de Puerto Rico."))
        return found

    def parcel(self, cadastre: str) -> Parcel:
        if cadastre not in self._parcels:
            found = Parcel.objects.select_related("municipality").filter(cadastre=cadastre).first()
            if found is None:
                raise CellError(_("No hay ninguna parcela con ese número de catastro en el registro."))
            self._parcels[cadastre] = found
        return self._parcels[cadastre]

    def party(self, ref: str) -> Party:
        if m := ID_REF_RE.match(ref):
            pk = int(m[1])
            if pk not in self._parties_by_id:
                found = Party.objects.filter(pk=pk).first()
                if found is None:
                    raise CellError(_("No hay ninguna persona o entidad con ese número interno."))
                self._remember_party(found)
            return self._parties_by_id[pk]
        if ref not in self._parties_by_ref:
            found = Party.objects.filter(ref=ref).first()
            if found is None:
                raise CellError(_("No hay ninguna persona o entidad con esa referencia en el registro."))
            self._remember_party(found)
        return self._parties_by_ref[ref]

    def district(self, code: str) -> District:
        if code not in self._districts:
            found = District.objects.filter(code=code).first()
            if found is None:
                raise CellError(_("No hay ningún distrito con ese código."))
            self._districts[code] = found
        return self._districts[code]


# ----------------------------------------------------------------------------- columns and kinds

@dataclass(frozen=True)
class Column:
    name: str
    field: str
    label: Any  # lazy translation
    parse: Callable[[Any, Resolver], Any] = parse_text
    export: Callable[[Any], Any] | None = None
    required: bool = False  # a new record needs a value
    aliases: tuple[str, ...] = ()
    reference: str = ""  # a foreign key found by the resolver: "municipality", "parcel", "party", "district"
    is_text: bool = True  # exported as text (guarded against formulas)

    def value_of(self, instance) -> Any:
        if self.export is not None:
            return self.export(instance)
        return getattr(instance, self.field)


def text(name, field_name=None, label="", **kw) -> Column:
    return Column(name=name, field=field_name or name, label=label, **kw)


def number(name, label, parse=parse_decimal, **kw) -> Column:
    return Column(name=name, field=name, label=label, parse=parse, is_text=False, **kw)


def day(name, label, **kw) -> Column:
    return Column(name=name, field=name, label=label, parse=parse_date, is_text=False, **kw)


def flag(name, label, **kw) -> Column:
    return Column(name=name, field=name, label=label, parse=parse_bool,
                  export=lambda obj, n=name: yes_no(getattr(obj, n)), **kw)


def choice(name, label, choices, **kw) -> Column:
    return Column(name=name, field=name, label=label, parse=choice_parser(choices), **kw)


L = gettext_lazy


@dataclass
class ImportKind:
    """One register table: its columns, natural key and the lookups that find existing rows."""

    key: str
    label: Any
    file_stem: str
    model: type[models.Model]
    columns: tuple[Column, ...]
    key_columns: tuple[str, ...]
    audit_action: str
    help: Any = ""
    by_name: dict[str, Column] = field(init=False, repr=False)

    def __post_init__(self):
        self.by_name = {c.name: c for c in self.columns}

    # The natural key of a row, from its parsed values (None when a key value is missing).
    def row_key(self, values: dict[str, Any]) -> tuple | None:
        parts = []
        for name in self.key_columns:
            value = values.get(name)
            if value is None or value == "":
                return None
            parts.append(value.pk if isinstance(value, models.Model) else value)
        return tuple(parts)

    def key_display(self, values: dict[str, Any], raw: dict[str, str]) -> str:
        return " · ".join(raw.get(name, "") for name in self.key_columns)

    def find_existing(self, keys: list[tuple]) -> dict[tuple, list]:
        """Existing records by natural key, loaded in bulk (a list: a key may match several)."""
        raise NotImplementedError

    def new_instance(self, values: dict[str, Any]):
        return self.model()

    def export_queryset(self):
        raise NotImplementedError


class PartiesKind(ImportKind):
    def row_key(self, values):
        ref = values.get("ref")
        if not ref:
            return None
        if m := ID_REF_RE.match(ref):
            return ("id", int(m[1]))
        return ("ref", ref)

    def find_existing(self, keys):
        refs = {k[1] for k in keys if k[0] == "ref"}
        ids = {k[1] for k in keys if k[0] == "id"}
        found: dict[tuple, list] = defaultdict(list)
        qs = Party.objects.select_related("address_municipality", "representative")
        for p in qs.filter(models.Q(ref__in=refs) | models.Q(pk__in=ids)):
            if p.ref in refs:
                found[("ref", p.ref)].append(p)
            if p.pk in ids:
                found[("id", p.pk)].append(p)
        return found

    def export_queryset(self):
        return Party.objects.select_related("address_municipality", "representative").order_by("pk")


class ParcelsKind(ImportKind):
    def find_existing(self, keys):
        return {(p.cadastre,): [p] for p in Parcel.objects.select_related("municipality").filter(
            cadastre__in=[k[0] for k in keys])}

    def export_queryset(self):
        return Parcel.objects.select_related("municipality").order_by("cadastre")


class OwnershipsKind(ImportKind):
    def find_existing(self, keys):
        found: dict[tuple, list] = defaultdict(list)
        qs = Ownership.objects.select_related("parcel", "party").filter(parcel_id__in={k[0] for k in keys})
        for own in qs:
            found[(own.parcel_id, own.party_id, own.start_date)].append(own)
        return found

    def export_queryset(self):
        return Ownership.objects.select_related("parcel", "party").order_by("parcel__cadastre", "start_date", "pk")


class MembershipsKind(ImportKind):
    def find_existing(self, keys):
        found: dict[tuple, list] = defaultdict(list)
        qs = Membership.objects.select_related("district", "parcel").filter(parcel_id__in={k[1] for k in keys})
        for m in qs:
            found[(m.district_id, m.parcel_id)].append(m)
        return found

    def export_queryset(self):
        return Membership.objects.select_related("district", "parcel").order_by("district__code", "parcel__cadastre")


class WaterKind(ImportKind):
    def find_existing(self, keys):
        found: dict[tuple, list] = defaultdict(list)
        qs = WaterDelivery.objects.select_related("parcel").filter(parcel_id__in={k[0] for k in keys})
        for w in qs:
            found[(w.parcel_id, w.fiscal_year, w.semester)].append(w)
        return found

    def export_queryset(self):
        return WaterDelivery.objects.select_related("parcel").order_by("parcel__cadastre", "fiscal_year", "semester")


def _cadastre_column(required=True) -> Column:
    return Column(name="cadastre", field="parcel", label=L("Número de catastro de la parcela (000-000-000-00)"),
                  parse=parse_parcel, export=lambda obj: obj.parcel.cadastre, required=required,
                  aliases=("catastro", "numero de catastro", "parcela"), reference="parcel")


PARTIES = PartiesKind(
    key="parties", label=L("Personas y entidades"), file_stem="personas", model=Party, audit_action="import.party",
    help=L("La referencia identifica a cada persona o entidad: si ya existe se actualiza, si no se crea. "
           "Las que no tienen referencia se exportan como #número interno."),
    key_columns=("ref",),
    columns=(
        Column("ref", "ref", L("Referencia (clave)"), parse=parse_ref, export=party_ref, required=True,
               aliases=("referencia", "codigo")),
        choice("kind", L("Tipo: PERSON (persona) u ORGANIZATION (organización)"), Party.Kind, aliases=("tipo",)),
        text("given_names", label=L("Nombres"), aliases=("nombres", "nombre")),
        text("first_surname", label=L("Primer apellido"), aliases=("primer apellido", "apellido paterno")),
        text("second_surname", label=L("Segundo apellido"), aliases=("segundo apellido", "apellido materno")),
        text("organization_name", label=L("Razón social"), aliases=("razon social", "organizacion")),
        Column("representative_ref", "representative", L("Referencia del representante"),
               parse=parse_party_or_pending, export=lambda obj: party_ref(obj.representative),
               aliases=("representante",), reference="party"),
        text("representative_title", label=L("Cargo del representante"), aliases=("cargo",)),
        text("email", label=L("Correo electrónico"), aliases=("correo", "correo electronico")),
        text("phone", label=L("Teléfono"), aliases=("telefono",)),
        text("address_urbanization", label=L("Urbanización"), aliases=("urbanizacion",)),
        text("address_barrio", label=L("Barrio"), aliases=("barrio",)),
        text("address_sector", label=L("Sector"), aliases=("sector",)),
        text("address_street", label=L("Calle"), aliases=("calle",)),
        text("address_number", label=L("Número"), aliases=("numero",)),
        text("address_po_box", label=L("Apartado (PO Box)"), aliases=("apartado", "po box")),
        Column("address_municipality", "address_municipality", L("Municipio (nombre o código)"),
               parse=parse_municipality,
               export=lambda obj: obj.address_municipality.name if obj.address_municipality_id else "",
               aliases=("municipio",), reference="municipality"),
        text("address_zip", label=L("Código postal (006xx, 007xx, 009xx)"), parse=parse_zip,
             aliases=("codigo postal", "zip")),
    ),
)

PARCELS = ParcelsKind(
    key="parcels", label=L("Parcelas"), file_stem="parcelas", model=Parcel, audit_action="import.parcel",
    help=L("El número de catastro identifica la parcela: si ya existe se actualiza, si no se crea."),
    key_columns=("cadastre",),
    columns=(
        text("cadastre", label=L("Número de catastro (clave, 000-000-000-00)"), required=True,
             aliases=("catastro", "numero de catastro")),
        Column("municipality", "municipality", L("Municipio (nombre o código)"), parse=parse_municipality,
               export=lambda obj: obj.municipality.name, required=True, aliases=("municipio",),
               reference="municipality"),
        text("barrio", label=L("Barrio")),
        text("location", label=L("Dirección física"), aliases=("ubicacion", "direccion fisica", "direccion")),
        number("area_value", L("Cabida según registro"), required=True, aliases=("cabida", "area")),
        choice("area_unit", L("Unidad: CUERDAS o M2"), Parcel.AreaUnit, aliases=("unidad",)),
        number("assessed_value", L("Valor tasado (USD)"), aliases=("valor tasado", "tasacion")),
        choice("use_class", L("Uso: AGRICULTURAL, RESIDENTIAL, COMMERCIAL, HOTEL, INDUSTRIAL, GOVERNMENT, VACANT"),
               Parcel.UseClass, aliases=("uso",)),
        number("frontage_m", L("Frente (m)"), aliases=("frente", "frente (m)")),
        flag("is_public_land", L("Terreno del Estado Libre Asociado (sí/no)"), aliases=("terreno publico",)),
    ),
)

OWNERSHIPS = OwnershipsKind(
    key="ownerships", label=L("Titularidades"), file_stem="titularidades", model=Ownership,
    audit_action="import.ownership",
    help=L("Catastro, referencia del dueño y fecha de inicio identifican cada titularidad. La parcela y la "
           "persona deben existir (importe primero personas y parcelas)."),
    key_columns=("cadastre", "party_ref", "start_date"),
    columns=(
        _cadastre_column(),
        Column("party_ref", "party", L("Referencia del dueño"), parse=parse_party,
               export=lambda obj: party_ref(obj.party), required=True,
               aliases=("dueno", "referencia del dueno", "persona"), reference="party"),
        number("share_pct", L("Participación (%)"), parse=parse_percent, aliases=("participacion", "porcentaje")),
        day("start_date", L("Desde (AAAA-MM-DD)"), required=True, aliases=("desde", "fecha inicial")),
        day("end_date", L("Hasta (AAAA-MM-DD, vacío si sigue vigente)"), aliases=("hasta", "fecha final")),
        text("deed", label=L("Escritura o documento"), aliases=("escritura", "documento")),
    ),
)

MEMBERSHIPS = MembershipsKind(
    key="memberships", label=L("Inclusiones en distritos"), file_stem="inclusiones", model=Membership,
    audit_action="import.membership",
    help=L("Código de distrito y catastro identifican cada inclusión. El distrito y la parcela deben existir."),
    key_columns=("district", "cadastre"),
    columns=(
        Column("district", "district", L("Código del distrito"), parse=parse_district,
               export=lambda obj: obj.district.code, required=True, aliases=("distrito", "codigo del distrito"),
               reference="district"),
        _cadastre_column(),
        day("included_on", L("Fecha de inclusión"), required=True, aliases=("inclusion", "fecha de inclusion")),
        choice("status", L("Inclusión: PROVISIONAL o PERMANENT"), Membership.Status, aliases=("estado",)),
        day("excluded_on", L("Fecha de exclusión"), aliases=("exclusion", "fecha de exclusion")),
        number("gravity_acres", L("Acres por gravedad"), aliases=("gravedad", "acres por gravedad")),
        number("pumped_acres", L("Acres por bombeo"), aliases=("bombeo", "acres por bombeo")),
        day("first_water_on", L("Primera agua recibida u ofrecida"), aliases=("primera agua",)),
        day("free_period_end", L("Fin del período libre (IRR-4)"), aliases=("fin periodo libre",)),
        day("twelve_months_on", L("Doce meses de agua cumplidos (LAJ-5)"), aliases=("doce meses",)),
        number("credit_pct", L("Crédito por derecho de agua (%) (LAJ-4)"), parse=parse_percent,
               aliases=("credito", "credito (%)")),
    ),
)

WATER = WaterKind(
    key="water", label=L("Entregas de agua"), file_stem="entregas-agua", model=WaterDelivery,
    audit_action="import.water",
    help=L("Catastro, año fiscal y semestre identifican cada registro (IRR-8). La parcela debe existir."),
    key_columns=("cadastre", "fiscal_year", "semester"),
    columns=(
        _cadastre_column(),
        number("fiscal_year", L("Año fiscal (p. ej. 2026)"), parse=parse_fiscal_year, required=True,
               aliases=("ano fiscal", "af")),
        number("semester", L("Semestre: 1 (jul–dic) o 2 (ene–jun)"), parse=parse_semester, required=True,
               aliases=("semestre",)),
        number("af_per_acre", L("Acre-pies por acre"), required=True, aliases=("acre-pies por acre", "acre pies")),
        flag("offered_only", L("Solo ofrecida (sí/no)"), aliases=("solo ofrecida",)),
    ),
)

KINDS: dict[str, ImportKind] = {k.key: k for k in (PARTIES, PARCELS, OWNERSHIPS, MEMBERSHIPS, WATER)}


def get_kind(key: str) -> ImportKind:
    try:
        return KINDS[key]
    except KeyError:
        raise CellError(_("Tipo de importación desconocido: %(kind)s.") % {"kind": key})


def header_key(header: str) -> str:
    """How headers are compared: accent-, case- and spacing-blind; '_' counts as a space."""
    return fold(str(header).replace("_", " "))


def match_headers(kind: ImportKind, headers: list[str]) -> tuple[dict[str, str], list[str], list[str]]:
    """Map file headers to columns. Returns ({column name: header}, unknown headers, repeated headers)."""
    lookup = {}
    for col in kind.columns:
        for alias in (col.name, *col.aliases):
            lookup.setdefault(header_key(alias), col.name)
    mapping: dict[str, str] = {}
    unknown, repeated = [], []
    for header in headers:
        if not str(header).strip():
            continue
        name = lookup.get(header_key(header))
        if name is None:
            unknown.append(header)
        elif name in mapping:
            repeated.append(header)
        else:
            mapping[name] = header
    return mapping, unknown, repeated
