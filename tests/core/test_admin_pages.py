"""Every model of every project app is in the Django admin, and its pages open for a superuser.

The lists are built from `admin.site._registry` and the app registry, so a model another app adds
later is covered without touching this file (and fails here, by name, if it is not registered).
"""
from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from core.admin_mixins import HistoryAdmin, ReadOnlyAdmin

PROJECT_PACKAGES = ("core", "districts", "liens", "franchises", "assessments")

# Append-only records: services write them; the admin must never add, edit or delete them.
APPEND_ONLY = {
    "core.auditentry", "core.document", "core.documentdownloadlog",
    "assessments.ledgerentry", "assessments.payment", "assessments.receivable", "assessments.bankfile",
    "assessments.bankfileline", "assessments.installment", "assessments.counter",
    "notices.notice", "notices.mailingbatch", "notices.noticeaddressee",
    "rolls.roll", "rolls.rollline", "liens.lienruling", "districts.importjob",
}
# Append-only too, with admins of their own (history, inlines): likewise never written here.
NEVER_CHANGED = {"districts.tidaccountentry", "districts.sidrefundline"}


def _key(model) -> str:
    return f"{model._meta.app_label}.{model._meta.model_name}"


def project_models():
    return [m for m in apps.get_models() if m.__module__.split(".")[0] in PROJECT_PACKAGES]


REGISTERED = sorted(admin.site._registry.items(), key=lambda item: _key(item[0]))


@pytest.fixture
def superuser_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("root.admin", "root@example.pr", "pw-Test-12345")
    client.force_login(user)
    return client


def test_every_project_model_is_registered():
    missing = sorted(_key(m) for m in project_models() if m not in admin.site._registry)
    assert missing == [], f"register these in their app's admin.py (core.admin_mixins): {missing}"


@pytest.mark.django_db
def test_append_only_records_and_history_are_read_only(rf, django_user_model):
    request = rf.get("/admin/")
    request.user = django_user_model.objects.create_superuser("root.admin", "root@example.pr", "pw-Test-12345")
    by_key = {_key(model): model_admin for model, model_admin in admin.site._registry.items()}
    histories = {k for k in by_key if k.split(".")[1].startswith("historical")}
    assert histories, "simple-history models expected"
    for key in sorted(APPEND_ONLY | NEVER_CHANGED | histories):
        model_admin = by_key[key]
        allowed = (model_admin.has_add_permission(request), model_admin.has_change_permission(request),
                   model_admin.has_delete_permission(request))
        assert allowed == (False, False, False), key
    for key in APPEND_ONLY:
        assert isinstance(by_key[key], ReadOnlyAdmin), key
    for key in histories:
        assert isinstance(by_key[key], HistoryAdmin), key


@pytest.mark.django_db
@pytest.mark.parametrize(("model", "model_admin"), REGISTERED, ids=[_key(m) for m, _ in REGISTERED])
def test_changelist_and_add_page_open(superuser_client, model, model_admin):
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert superuser_client.get(changelist).status_code == 200, changelist
    add = reverse(f"admin:{opts.app_label}_{opts.model_name}_add")
    response = superuser_client.get(add)
    if _allows_add(model_admin, superuser_client):
        assert response.status_code == 200, add
    else:
        assert response.status_code == 403, add


def _allows_add(model_admin, client) -> bool:
    from django.contrib.auth import get_user_model
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = get_user_model().objects.get(username="root.admin")
    return model_admin.has_add_permission(request)


@pytest.mark.django_db
def test_pages_open_with_demo_data(superuser_client, monkeypatch):
    """With the demo register seeded, every changelist and one change page a model render (no 500)."""
    monkeypatch.delenv("DEMO_PASSWORD", raising=False)
    call_command("seed_demo", verbosity=0)
    failures = []
    for model, _model_admin in REGISTERED:
        opts = model._meta
        url = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        status = superuser_client.get(url).status_code
        if status != 200:
            failures.append((url, status))
        obj = model._default_manager.order_by("pk").first()
        if obj is not None:
            url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
            status = superuser_client.get(url).status_code
            if status != 200:
                failures.append((url, status))
    assert failures == []
