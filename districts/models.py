"""The land register: parties, offices, parcels, ownership, districts, memberships, water records."""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.areas import acres_from_m2, cuerdas_from_m2, m2_from_cuerdas
from core.models import TimeStampedModel
from core.text import fold
from districts.reference import CADASTRE, PR_ZIP

zip_validator = RegexValidator(PR_ZIP, _("Código postal de Puerto Rico inválido (006xx, 007xx o 009xx)."))
cadastre_validator = RegexValidator(CADASTRE, _("Número de catastro inválido: use el formato 000-000-000-00."))
AREA = {"max_digits": 16, "decimal_places": 4, "validators": [MinValueValidator(Decimal("0"))]}
MONEY = {"max_digits": 14, "decimal_places": 2}


class Municipality(models.Model):
    """One of Puerto Rico's 78 municipalities (reference data loaded by migration)."""

    name = models.CharField(_("nombre"), max_length=40, unique=True)
    code = models.CharField(_("código"), max_length=3, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("municipio")
        verbose_name_plural = _("municipios")

    def __str__(self) -> str:
        return self.name


class PostalAddress(models.Model):
    """Puerto Rico's address forms: urbanización / barrio / sector, street and number, or PO box."""

    address_urbanization = models.CharField(_("urbanización"), max_length=100, blank=True)
    address_barrio = models.CharField(_("barrio"), max_length=100, blank=True)
    address_sector = models.CharField(_("sector"), max_length=100, blank=True)
    address_street = models.CharField(_("calle"), max_length=120, blank=True)
    address_number = models.CharField(_("número"), max_length=20, blank=True)
    address_po_box = models.CharField(_("apartado (PO Box)"), max_length=30, blank=True)
    address_municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, null=True, blank=True,
                                             related_name="+", verbose_name=_("municipio"))
    address_zip = models.CharField(_("código postal"), max_length=10, blank=True, validators=[zip_validator])

    class Meta:
        abstract = True

    @property
    def address_lines(self) -> list[str]:
        """The address as it is written on an envelope in Puerto Rico."""
        lines = []
        if self.address_po_box:
            lines.append(f"PO Box {self.address_po_box}")
        street = " ".join(p for p in (self.address_number, self.address_street) if p)
        if self.address_urbanization:
            lines.append(f"Urb. {self.address_urbanization}")
        if street:
            lines.append(street)
        rural = ", ".join(p for p in (
            f"Sector {self.address_sector}" if self.address_sector else "",
            f"Bo. {self.address_barrio}" if self.address_barrio else "") if p)
        if rural:
            lines.append(rural)
        city = self.address_municipality.name if self.address_municipality_id else ""
        last = " ".join(p for p in (city, "PR" if city else "", self.address_zip) if p)
        if last:
            lines.append(last)
        return lines

    def address_text(self) -> str:
        return ", ".join(self.address_lines)


class Party(PostalAddress, TimeStampedModel):
    """A person or an organization: owner, franchise holder, association, representative."""

    class Kind(models.TextChoices):
        PERSON = "PERSON", _("Persona")
        ORGANIZATION = "ORGANIZATION", _("Organización")

    kind = models.CharField(_("tipo"), max_length=12, choices=Kind.choices, default=Kind.PERSON)
    ref = models.CharField(_("referencia"), max_length=30, unique=True, null=True, blank=True,
                           help_text=_("Código estable que identifica a la persona o entidad al importar y exportar."))
    given_names = models.CharField(_("nombres"), max_length=100, blank=True)
    first_surname = models.CharField(_("primer apellido"), max_length=60, blank=True)
    second_surname = models.CharField(_("segundo apellido"), max_length=60, blank=True)
    organization_name = models.CharField(_("razón social"), max_length=200, blank=True)
    representative = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True,
                                       related_name="represents", verbose_name=_("representante"))
    representative_title = models.CharField(_("cargo del representante"), max_length=100, blank=True)
    email = models.EmailField(_("correo electrónico"), blank=True)
    phone = models.CharField(_("teléfono"), max_length=30, blank=True)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="party", verbose_name=_("cuenta de acceso"))
    # Notices are in Spanish unless the party asked for English (the notices' "English on request").
    notice_language = models.CharField(_("idioma de los avisos"), max_length=5, choices=settings.LANGUAGES,
                                       default="es")
    search_text = models.TextField(editable=False, blank=True, db_index=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["first_surname", "second_surname", "given_names", "organization_name"]
        verbose_name = _("persona o entidad")
        verbose_name_plural = _("personas y entidades")

    def clean(self):
        errors = {}
        if self.kind == self.Kind.PERSON:
            if not self.given_names:
                errors["given_names"] = _("Una persona necesita nombre.")
            if not self.first_surname:
                errors["first_surname"] = _("Una persona necesita al menos el primer apellido.")
        elif not self.organization_name:
            errors["organization_name"] = _("Una organización necesita su razón social.")
        if errors:
            raise ValidationError(errors)

    @property
    def display_name(self) -> str:
        if self.kind == self.Kind.ORGANIZATION:
            return self.organization_name
        return " ".join(p for p in (self.given_names, self.first_surname, self.second_surname) if p)

    def save(self, *args, **kwargs):
        self.search_text = fold(" ".join([self.display_name, self.email, self.phone, self.address_text()]))
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("districts:party_detail", args=[self.pk])

    def __str__(self) -> str:
        return self.display_name


class Office(PostalAddress, TimeStampedModel):
    """An issuing or collecting office; its letterhead heads notices, receipts and certificates."""

    class Kind(models.TextChoices):
        TREASURY = "TREASURY", _("Departamento de Hacienda")
        IRRIGATION = "IRRIGATION", _("Servicio de Riego")
        LAJAS = "LAJAS", _("Autoridad del Valle de Lajas")
        DRNA = "DRNA", _("Departamento de Recursos Naturales y Ambientales")
        CRIM = "CRIM", _("Centro de Recaudación de Ingresos Municipales")
        MUNICIPALITY = "MUNICIPALITY", _("Municipio")
        ASSOCIATION = "ASSOCIATION", _("Asociación")
        OTHER = "OTHER", _("Otra")

    name = models.CharField(_("nombre"), max_length=200, unique=True)
    kind = models.CharField(_("tipo"), max_length=14, choices=Kind.choices)
    phone = models.CharField(_("teléfono"), max_length=30, blank=True)
    email = models.EmailField(_("correo electrónico"), blank=True)
    letterhead = models.ImageField(_("membrete"), upload_to="letterheads/", blank=True)
    issues = models.BooleanField(_("emite cargos"), default=True)
    collects = models.BooleanField(_("cobra"), default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("oficina")
        verbose_name_plural = _("oficinas")

    def get_absolute_url(self) -> str:
        return reverse("districts:office_list")

    def __str__(self) -> str:
        return self.name


class StaffOffice(models.Model):
    """A staff member works at an office: unassigned dashboard items of that office are theirs
    (core.dashboard.selectors.responsible_for). A user with no office answers for every office."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_offices",
                             verbose_name=_("usuario"))
    office = models.ForeignKey(Office, on_delete=models.CASCADE, related_name="staff", verbose_name=_("oficina"))

    class Meta:
        ordering = ["office__name", "user__username"]
        verbose_name = _("oficina del personal")
        verbose_name_plural = _("oficinas del personal")
        constraints = [models.UniqueConstraint(fields=["user", "office"], name="uniq_staffoffice_user_office")]

    def __str__(self) -> str:
        return f"{self.user} — {self.office}"


class Parcel(TimeStampedModel):
    """A property in the CRIM cadastre. The area is kept as recorded; acres derive exactly."""

    class AreaUnit(models.TextChoices):
        CUERDAS = "CUERDAS", _("cuerdas")
        M2 = "M2", _("metros cuadrados")

    class UseClass(models.TextChoices):
        AGRICULTURAL = "AGRICULTURAL", _("Agrícola")
        RESIDENTIAL = "RESIDENTIAL", _("Residencial")
        COMMERCIAL = "COMMERCIAL", _("Comercial")
        HOTEL = "HOTEL", _("Hotel")
        INDUSTRIAL = "INDUSTRIAL", _("Industrial")
        GOVERNMENT = "GOVERNMENT", _("Gobierno")
        VACANT = "VACANT", _("Solar vacante")

    cadastre = models.CharField(_("número de catastro"), max_length=20, unique=True, validators=[cadastre_validator])
    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="parcels",
                                     verbose_name=_("municipio"))
    barrio = models.CharField(_("barrio"), max_length=100, blank=True)
    location = models.CharField(_("dirección física"), max_length=200, blank=True)
    area_value = models.DecimalField(_("cabida según registro"), **AREA)
    area_unit = models.CharField(_("unidad"), max_length=8, choices=AreaUnit.choices, default=AreaUnit.CUERDAS)
    assessed_value = models.DecimalField(_("valor tasado"), default=Decimal("0"),
                                         validators=[MinValueValidator(Decimal("0"))], **MONEY)
    use_class = models.CharField(_("uso"), max_length=14, choices=UseClass.choices, default=UseClass.AGRICULTURAL)
    frontage_m = models.DecimalField(_("frente (m)"), max_digits=10, decimal_places=2, default=Decimal("0"),
                                     validators=[MinValueValidator(Decimal("0"))])
    is_public_land = models.BooleanField(_("terreno del Estado Libre Asociado"), default=False)
    search_text = models.TextField(editable=False, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["cadastre"]
        verbose_name = _("parcela")
        verbose_name_plural = _("parcelas")

    @property
    def area_m2(self) -> Decimal:
        if self.area_unit == self.AreaUnit.M2:
            return self.area_value
        return m2_from_cuerdas(self.area_value)

    @property
    def area_cuerdas(self) -> Decimal:
        if self.area_unit == self.AreaUnit.CUERDAS:
            return self.area_value
        return cuerdas_from_m2(self.area_value)

    @property
    def area_acres(self) -> Decimal:
        """Acres rounded half-up to 4 decimals, as the engines take them (docs/rules/README.md#areas)."""
        return acres_from_m2(self.area_m2)

    def save(self, *args, **kwargs):
        municipality = self.municipality.name if self.municipality_id else ""
        self.search_text = fold(" ".join([self.cadastre, municipality, self.barrio, self.location]))
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("districts:parcel_detail", args=[self.pk])

    def __str__(self) -> str:
        return self.cadastre


class Ownership(TimeStampedModel):
    """A party's share of a parcel between two dates; a sale ends one and starts another."""

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="ownerships",
                               verbose_name=_("parcela"))
    party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="ownerships",
                              verbose_name=_("dueño"))
    share_pct = models.DecimalField(_("participación (%)"), max_digits=7, decimal_places=4, default=Decimal("100"),
                                    validators=[MinValueValidator(Decimal("0.0001"))])
    start_date = models.DateField(_("desde"))
    end_date = models.DateField(_("hasta"), null=True, blank=True)
    deed = models.CharField(_("escritura o documento"), max_length=120, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["parcel", "-start_date"]
        verbose_name = _("titularidad")
        verbose_name_plural = _("titularidades")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end_date__isnull=True) | models.Q(end_date__gt=models.F("start_date")),
                name="ownership_end_after_start"),
            models.CheckConstraint(condition=models.Q(share_pct__gt=0) & models.Q(share_pct__lte=100),
                                   name="ownership_share_range"),
        ]

    def clean(self):
        if self.end_date and self.start_date and self.end_date <= self.start_date:
            raise ValidationError({"end_date": _("La fecha final debe ser posterior a la inicial.")})

    def get_absolute_url(self) -> str:
        return reverse("districts:parcel_detail", args=[self.parcel_id])

    def __str__(self) -> str:
        return f"{self.party} — {self.parcel} ({self.share_pct} %)"


class District(TimeStampedModel):
    class Kind(models.TextChoices):
        IRRIGATION = "IRRIGATION", _("Distrito de riego (bonos)")
        LAJAS = "LAJAS", _("Distrito de Riego del Valle de Lajas")
        SID = "SID", _("Distrito especial de mejoramiento")
        TID = "TID", _("Distrito de mejoramiento turístico")

    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    code = models.SlugField(_("código"), max_length=30, unique=True)
    name = models.CharField(_("nombre"), max_length=200)
    municipalities = models.ManyToManyField(Municipality, related_name="districts", verbose_name=_("municipios"))
    region = models.CharField(_("región"), max_length=100, blank=True)
    office = models.ForeignKey(Office, on_delete=models.PROTECT, related_name="districts",
                               verbose_name=_("oficina que emite"))
    collecting_office = models.ForeignKey(Office, on_delete=models.PROTECT, related_name="collecting_districts",
                                          null=True, blank=True, verbose_name=_("oficina que cobra"))
    completion_certified_on = models.DateField(
        _("certificación de obras completas (IRR-8)"), null=True, blank=True,
        help_text=_("Fecha en que el DTOP certificó que toda parte fundamental del sistema está construida."))
    history = HistoricalRecords()

    class Meta:
        ordering = ["kind", "name"]
        verbose_name = _("distrito")
        verbose_name_plural = _("distritos")

    def get_absolute_url(self) -> str:
        return reverse("districts:district_detail", args=[self.code])

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class Membership(TimeStampedModel):
    """A parcel's inclusion in a district, with the facts the irrigation rules read."""

    class Status(models.TextChoices):
        PROVISIONAL = "PROVISIONAL", _("Provisional")
        PERMANENT = "PERMANENT", _("Permanente")

    district = models.ForeignKey(District, on_delete=models.PROTECT, related_name="memberships",
                                 verbose_name=_("distrito"))
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="memberships",
                               verbose_name=_("parcela"))
    included_on = models.DateField(_("fecha de inclusión"))
    status = models.CharField(_("inclusión"), max_length=12, choices=Status.choices, default=Status.PERMANENT)
    excluded_on = models.DateField(_("fecha de exclusión"), null=True, blank=True)
    gravity_acres = models.DecimalField(_("acres por gravedad"), default=Decimal("0"), **AREA)
    pumped_acres = models.DecimalField(_("acres por bombeo"), default=Decimal("0"), **AREA)
    first_water_on = models.DateField(_("primera agua recibida u ofrecida"), null=True, blank=True)
    free_period_end = models.DateField(_("fin del período libre (IRR-4)"), null=True, blank=True)
    twelve_months_on = models.DateField(_("doce meses de agua cumplidos (LAJ-5)"), null=True, blank=True)
    credit_pct = models.DecimalField(_("crédito por derecho de agua (%) (LAJ-4)"), max_digits=7, decimal_places=4,
                                     default=Decimal("0"), validators=[MinValueValidator(Decimal("0"))])
    history = HistoricalRecords()

    class Meta:
        ordering = ["district", "parcel"]
        verbose_name = _("inclusión en distrito")
        verbose_name_plural = _("inclusiones en distritos")
        constraints = [
            models.UniqueConstraint(fields=["district", "parcel"], name="uniq_membership_district_parcel"),
            models.CheckConstraint(condition=models.Q(credit_pct__lte=100), name="membership_credit_pct_max"),
        ]

    @property
    def irrigated_acres(self) -> Decimal:
        return self.gravity_acres + self.pumped_acres

    def clean(self):
        from districts.rules import membership_errors

        errors = membership_errors(
            included_on=self.included_on, free_period_end=self.free_period_end,
            first_water_on=self.first_water_on, credit_pct=self.credit_pct)
        if errors:
            raise ValidationError(errors)

    def get_absolute_url(self) -> str:
        return reverse("districts:parcel_detail", args=[self.parcel_id])

    def __str__(self) -> str:
        return f"{self.parcel} ∈ {self.district.code}"


class WaterDelivery(TimeStampedModel):
    """Water received or offered to a parcel in one semester, in acre-feet per acre (IRR-8)."""

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="water_deliveries",
                               verbose_name=_("parcela"))
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    semester = models.PositiveSmallIntegerField(_("semestre"), choices=[(1, "S1 (jul–dic)"), (2, "S2 (ene–jun)")])
    af_per_acre = models.DecimalField(_("acre-pies por acre"), max_digits=8, decimal_places=3,
                                      validators=[MinValueValidator(Decimal("0"))])
    offered_only = models.BooleanField(_("solo ofrecida"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["parcel", "fiscal_year", "semester"]
        verbose_name = _("entrega de agua")
        verbose_name_plural = _("entregas de agua")
        constraints = [models.UniqueConstraint(fields=["parcel", "fiscal_year", "semester"],
                                               name="uniq_water_parcel_period")]

    @property
    def period(self) -> str:
        return f"FY{self.fiscal_year}-S{self.semester}"

    def get_absolute_url(self) -> str:
        return reverse("districts:parcel_detail", args=[self.parcel_id])

    def __str__(self) -> str:
        return f"{self.parcel} {self.period}: {self.af_per_acre}"


from districts.imports.models import ImportJob  # noqa: E402,F401
from districts.improvement.models import *  # noqa: E402,F401,F403
