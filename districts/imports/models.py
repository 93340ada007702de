"""A large import confirmation, applied by a Celery task instead of inside the request.

A file with more rows than `IMPORT_TASK_THRESHOLD_ROWS` takes 30–60 s to write; the confirm step
records an ImportJob and the task applies it: still all rows or none (one transaction), and a
redelivered task finds the job finished and writes nothing again. The job names the previewed
bytes by their SHA-256, so what is applied is exactly what the writer reviewed.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class ImportJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "QUEUED", _("En cola")
        RUNNING = "RUNNING", _("En proceso")
        DONE = "DONE", _("Terminada")
        FAILED = "FAILED", _("No se guardó nada")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    kind = models.CharField(_("contenido"), max_length=20)
    file_name = models.CharField(_("archivo"), max_length=255, blank=True)
    sha256 = models.CharField(_("huella SHA-256"), max_length=64)
    stored_path = models.CharField(_("copia revisada"), max_length=255)
    row_count = models.PositiveIntegerField(_("filas"), default=0)
    status = models.CharField(_("estado"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(_("filas guardadas"), default=0)
    counts = models.JSONField(_("resultado"), default=dict, blank=True)
    errors = models.JSONField(_("errores"), default=list, blank=True)
    message = models.TextField(_("mensaje"), blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                     verbose_name=_("solicitado por"))
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    started_at = models.DateTimeField(_("iniciado"), null=True, blank=True)
    finished_at = models.DateTimeField(_("terminado"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("importación en segundo plano")
        verbose_name_plural = _("importaciones en segundo plano")
        constraints = [
            # A double click on "confirm" finds the job already queued for the same bytes.
            models.UniqueConstraint(fields=["kind", "sha256"], condition=models.Q(status__in=["QUEUED", "RUNNING"]),
                                    name="uniq_active_import_job"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.file_name or self.sha256[:12]}: {self.status}"

    def get_absolute_url(self) -> str:
        return reverse("imports:job", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
