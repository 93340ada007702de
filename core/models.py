"""Cross-cutting records: the audit trail, staff-entered holidays, parameter versions."""
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class TimeStampedModel(models.Model):
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    updated_at = models.DateTimeField(_("actualizado"), auto_now=True)

    class Meta:
        abstract = True


class AuditEntry(models.Model):
    """One state change made by a service, with the acting user, in the same transaction."""

    at = models.DateTimeField(_("fecha y hora"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+", verbose_name=_("usuario"))
    action = models.CharField(_("acción"), max_length=80, db_index=True)
    target_type = models.ForeignKey(ContentType, null=True, blank=True, on_delete=models.PROTECT)
    target_id = models.CharField(max_length=64, blank=True)
    summary = models.CharField(_("resumen"), max_length=300, blank=True)
    data = models.JSONField(_("datos"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("entrada de auditoría")
        verbose_name_plural = _("auditoría")
        indexes = [models.Index(fields=["target_type", "target_id"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.summary}"


class Holiday(models.Model):
    """A date staff add to (or remove from) the Puerto Rico holiday list the library gives.

    Governors move and proclaim holidays; the library cannot know, so staff record them here.
    """

    date = models.DateField(_("fecha"), unique=True)
    name = models.CharField(_("nombre"), max_length=120)
    is_working_day = models.BooleanField(
        _("es día laborable"), default=False,
        help_text=_("Marque si un feriado de la lista oficial se trabaja este año (p. ej., trasladado)."))
    history = HistoricalRecords()

    class Meta:
        ordering = ["date"]
        verbose_name = _("feriado")
        verbose_name_plural = _("feriados")

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d} {self.name}"


class ParameterVersion(models.Model):
    """A newer version of a parameter family entered by an administrator (overrides shipped files)."""

    family = models.CharField(_("familia"), max_length=60, db_index=True)
    version = models.CharField(_("versión"), max_length=40)
    effective_from = models.DateField(_("vigente desde"))
    citation = models.CharField(_("cita legal"), max_length=300)
    values = models.JSONField(_("valores"), help_text=_("Los valores numéricos se escriben como texto: \"0.05\"."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    history = HistoricalRecords()

    class Meta:
        ordering = ["family", "-effective_from"]
        verbose_name = _("versión de parámetros")
        verbose_name_plural = _("versiones de parámetros")
        constraints = [
            models.UniqueConstraint(fields=["family", "version"], name="uniq_parameter_family_version"),
            models.UniqueConstraint(fields=["family", "effective_from"], name="uniq_parameter_family_date"),
        ]

    def __str__(self) -> str:
        return f"{self.family}@{self.version} ({self.effective_from})"
