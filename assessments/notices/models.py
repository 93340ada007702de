"""Charge notices (*avisos de cobro*): one current notice per receivable, numbered once, never renumbered.

A notice is numbered when it is issued (`AV-<year>-<seq>`, gapless per year through a locked
counter) with a snapshot of whom it is addressed to: the owners of record on its date (or the
franchise holder when the account is a party's). Its PDF is a core Document, rendered right away
by the workers or, for a notice numbered in bulk without one, on first download. A correction is
a new Notice that names the one it replaces and keeps its number with the next revision
(`AV-2026-000123-C1`); the replaced notice and its PDF stay as they were.

Mailing: notices of one billing run go out in a MailingBatch (print-ready PDF and mailing list);
tracking numbers and delivery dates come back per notice or by CSV.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

USER = settings.AUTH_USER_MODEL


class MailingMethod(models.TextChoices):
    REGULAR = "REGULAR", _("Correo regular")
    CERTIFIED_RR = "CERTIFIED_RR", _("Correo certificado con acuse de recibo")


class MailingBatch(models.Model):
    """The notices of one billing run mailed the same way: a print-ready PDF in cadastre order and
    the mailing list."""

    source_type = models.CharField(_("origen de los cargos"), max_length=60, db_index=True)
    source_label = models.CharField(_("descripción del origen"), max_length=200, blank=True)
    method = models.CharField(_("forma de envío"), max_length=12, choices=MailingMethod.choices)
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    created_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("creado por"))
    notice_count = models.PositiveIntegerField(_("avisos"), default=0)
    page_count = models.PositiveIntegerField(_("páginas"), default=0)
    pdf = models.FileField(_("PDF para imprimir"), upload_to="notices/batches/", max_length=200, blank=True)
    pdf_sha256 = models.CharField(max_length=64, blank=True)
    pdf_built_at = models.DateTimeField(_("PDF preparado"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("lote de envío")
        verbose_name_plural = _("lotes de envío")

    @property
    def number(self) -> str:
        return f"E-{self.pk:05d}"

    def get_absolute_url(self) -> str:
        return reverse("notices:batch_detail", args=[self.pk])

    def __str__(self) -> str:
        return f"{self.number} · {self.source_label or self.source_type} · {self.get_method_display()}"


class Notice(models.Model):
    class Status(models.TextChoices):
        ISSUED = "ISSUED", _("Emitido")
        MAILED = "MAILED", _("Enviado")
        DELIVERED = "DELIVERED", _("Entregado")
        RETURNED = "RETURNED", _("Devuelto por el correo")
        REPLACED = "REPLACED", _("Sustituido por corrección")

    class Program(models.TextChoices):
        IRR = "IRR", _("Cuota de riego (distrito financiado con bonos)")
        LAJ = "LAJ", _("Contribución O&M del Valle de Lajas")
        SID = "SID", _("Cargo por beneficio (distrito especial de mejoramiento)")
        TID = "TID", _("Cargo de distrito de mejoramiento turístico")
        FRA = "FRA", _("Tarifa de franquicia de agua")
        OTHER = "OTHER", _("Otro cargo")

    receivable = models.ForeignKey("assessments.Receivable", on_delete=models.PROTECT, related_name="notices",
                                   verbose_name=_("cargo"))
    replaces = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="replaced_by", verbose_name=_("sustituye a"))
    number = models.CharField(_("número"), max_length=20, db_index=True)
    year = models.PositiveSmallIntegerField(_("año"))
    seq = models.PositiveIntegerField(_("secuencia"))
    revision = models.PositiveSmallIntegerField(_("corrección"), default=0)
    correction_reason = models.TextField(_("motivo de la corrección"), blank=True)
    document = models.OneToOneField("core.Document", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="notice", verbose_name=_("documento"))
    addressees = models.JSONField(_("destinatarios (a la fecha del aviso)"), default=list)
    language = models.CharField(_("idioma"), max_length=8, default="es")
    issued_on = models.DateField(_("fecha del aviso"))
    program = models.CharField(_("programa"), max_length=5, choices=Program.choices)
    source_type = models.CharField(_("origen de los cargos"), max_length=60, db_index=True)
    sort_key = models.CharField(_("orden de impresión"), max_length=120, blank=True)
    method = models.CharField(_("forma de envío"), max_length=12, choices=MailingMethod.choices)
    batch = models.ForeignKey(MailingBatch, on_delete=models.PROTECT, null=True, blank=True, related_name="notices",
                              verbose_name=_("lote de envío"))
    tracking_number = models.CharField(_("número de rastreo"), max_length=40, blank=True)
    mailed_on = models.DateField(_("enviado el"), null=True, blank=True)
    delivered_on = models.DateField(_("entregado el (notificación)"), null=True, blank=True)
    returned_on = models.DateField(_("devuelto el"), null=True, blank=True)
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.ISSUED,
                              db_index=True)
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    created_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("emitido por"))
    rendered_at = models.DateTimeField(_("PDF generado"), null=True, blank=True)

    class Meta:
        ordering = ["-year", "-seq", "-revision"]
        verbose_name = _("aviso de cobro")
        verbose_name_plural = _("avisos de cobro")
        constraints = [
            # One current notice per receivable: issuing twice finds the first.
            models.UniqueConstraint(fields=["receivable"], condition=~Q(status="REPLACED"),
                                    name="uniq_current_notice_per_receivable"),
            models.UniqueConstraint(fields=["number", "revision"], name="uniq_notice_number_revision"),
            models.UniqueConstraint(fields=["year", "seq", "revision"], name="uniq_notice_year_seq_revision"),
        ]
        indexes = [models.Index(fields=["source_type", "batch"], name="notice_source_batch_idx")]

    @property
    def display_number(self) -> str:
        return self.number if not self.revision else f"{self.number}-C{self.revision}"

    @property
    def is_current(self) -> bool:
        return self.status != self.Status.REPLACED

    @property
    def addressee_names(self) -> str:
        return "; ".join(a.get("name", "") for a in self.addressees)

    @property
    def sort_label(self) -> str:
        """The printing order as a person reads it: the cadastre, or the holder's name as written, never
        the internal key ("~hotel playa azul", lower-cased so holders sort after parcels)."""
        if not self.sort_key.startswith("~"):
            return self.sort_key
        return (self.addressees[0].get("name", "") if self.addressees else "") or self.sort_key[1:]

    def get_absolute_url(self) -> str:
        return reverse("notices:detail", args=[self.pk])

    def __str__(self) -> str:
        return self.display_number


class NoticeAddressee(models.Model):
    """A party a notice is addressed to, with the portal activation code printed for them.

    The code itself is never stored: only its SHA-256 (`activation_hash`); it is drawn when the
    PDF is rendered and printed on it.
    """

    notice = models.ForeignKey(Notice, on_delete=models.CASCADE, related_name="addressee_rows")
    party = models.ForeignKey("districts.Party", on_delete=models.PROTECT, related_name="notice_addressees",
                              verbose_name=_("destinatario"))
    activation_hash = models.CharField(max_length=64, blank=True, db_index=True)
    activation_used_at = models.DateTimeField(_("código usado"), null=True, blank=True)

    class Meta:
        verbose_name = _("destinatario del aviso")
        verbose_name_plural = _("destinatarios del aviso")
        constraints = [models.UniqueConstraint(fields=["notice", "party"], name="uniq_notice_addressee")]

    def __str__(self) -> str:
        return f"{self.notice_id} → {self.party_id}"
