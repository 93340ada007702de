"""No page and no API endpoint answers 500: bad input gets a 4xx with a message, never a server error.

One realistic world (the demo seeds at a small size, rolled back at the end of the module), then:
- every named staff page, GET with the real id/code of an existing object, as the broadest staff user and
  as the administrator; and again with junk query strings;
- every endpoint of the OpenAPI schema: GET with real ids, and POST/PUT/PATCH with `{}`, wrong types and
  non-JSON bodies, which must all be 4xx;
- the owners' portal and /api/v1/portal/ with ids that are not the owner's: 404.
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.conftest import require, using_postgres
from tests.web.routes import named_patterns

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

MISSING = 987654321  # an id no table reaches
PUBLIC = {"login", "logout", "password_reset", "password_reset_done", "password_reset_confirm",
          "password_reset_complete", "set_language", "core:verify_form", "core:verify", "core:calendar_ical",
          "healthz", "readyz"}  # the load balancer's probes (tests/core/test_health.py)
SKIP_NAMESPACES = {"admin", "portal", "api"}
IMPROVEMENT = ["SID", "TID"]  # District.Kind of the improvement districts
STAFF_ELSEWHERE = {"portal:invite"}  # the staff's page that invites an owner to the portal
SEEDS = [("seed_demo", "--parcels", "40"), ("seed_franchises",), ("seed_improvement",),
         ("seed_improvement_billing",), ("seed_liens",), ("seed_rolls",), ("seed_franchise_billing",),
         ("issue_demo_notices",), ("seed_dashboard",)]

# The model whose pk a route's id kwarg names, by route-name prefix (first match wins).
ROUTE_MODELS = {
    "imports:": "districts.ImportJob",
    "districts:parcel_": "districts.Parcel",
    "districts:party_": "districts.Party",
    "districts:ownership_": "districts.Ownership",
    "districts:district_": "districts.District",
    "districts:membership_": "districts.Membership",
    "districts:water_": "districts.WaterDelivery",
    "districts:office_": "districts.Office",
    "core:flag_": "core.Flag",
    "core:document_": "core.Document",
    "franchises:application_hearing": "franchises.Application",
    "franchises:application_file": "franchises.Franchise",
    "franchises:application_": "franchises.Application",
    "franchises:hearing_": "franchises.Hearing",
    "franchises:proceeding_create": "franchises.Franchise",
    "franchises:proceeding_": "franchises.Proceeding",
    "franchises:": "franchises.Franchise",
    "franchise_billing:": "franchises.Franchise",
    "improvement_billing:run": "improvement_billing.BillingRun",
    "improvement_billing:": "districts.District",
    "portal:invite": "districts.Party",
    "rolls:job": "rolls.RollJob",
    "rolls:override_decide": "rolls.RollOverride",
    "rolls:override": "rolls.RollLine",
    "rolls:": "rolls.Roll",
    "notices:batch_": "notices.MailingBatch",
    "notices:": "notices.Notice",
    "assessments:parcel_account": "districts.Parcel",
    "assessments:payment_create": "assessments.Account",
    "assessments:payment": "assessments.Payment",
    "assessments:receipt": "assessments.Payment",
    "assessments:batch": "assessments.CashierBatch",
    "assessments:bankfile": "assessments.BankFile",
    "assessments:adjustment_decide": "assessments.Adjustment",
    "assessments:": "assessments.Account",
    "improvement:sid_": "districts.SidResolution",
    "improvement:tid_": "districts.TidPetition",
    "liens:status": "liens.Lien",
    "liens:ruling_revoke": "liens.LienRuling",
    "liens:": "districts.Parcel",
}
# Query strings that are not what the page expects, one at a time and all together.
JUNK = ["page=abc", "district=zzz", "mes=2026-13", "q=%00", "desde=notadate",
        "on=0001-01-01&as_of=0001-01-01&start=0001-01-01&end=9999-12-31&desde=0001-01-01&hasta=9999-12-31"]
JUNK_ALL = ("page=-1&district=%00&mes=13-2026&q=" + "x" * 3000 + "&desde=2026-02-30&hasta=x&fiscal_year=abc"
            "&fy=abc&format=zzz&start=2026-02-30&end=notadate&as_of=2026-13-01&on=abc&status=zzz&kind=zzz&state=zzz"
            "&run=99999999999999999999&import=99999999999999999999&period=zzz&source=zzz&template=1&assigned=zzz"
            "&rule=zzz&higher=99999999999999999999&lower=1&amount_owed=abc&proposed_value=-5&cause=zzz"
            "&municipality=zzz&resolution=99999999999999999999&semana=zzz&week=zzz&year=abc&month=abc")


def model_for(name: str):
    for prefix, label in ROUTE_MODELS.items():
        if name.startswith(prefix):
            return apps.get_model(label)
    return None


def _staff_routes():
    routes = []
    for ns, p, name in named_patterns():
        if name not in STAFF_ELSEWHERE and (
                (ns and ns[0] in SKIP_NAMESPACES) or name in PUBLIC or p.name.startswith("password_change")):
            continue
        routes.append((name, tuple(p.pattern.regex.groupindex)))
    return routes


STAFF_ROUTES = _staff_routes()


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The demo world at a small size, built once for the module and rolled back after it."""
    with django_db_blocker.unblock():
        require(using_postgres(), "needs PostgreSQL: set DATABASE_URL=postgres://…")
        with transaction.atomic():
            for cmd, *args in SEEDS:
                call_command(cmd, *args, stdout=StringIO(), stderr=StringIO())
            from django.contrib.auth.models import Group, User

            broad = User.objects.create_user("h5.broad", password="x")
            broad.groups.add(*Group.objects.filter(name__in=["staff", "cashier", "approver", "legal_reviewer"]))
            _the_rest_of_the_world(User.objects.get(username="admin"))
            yield {"broad": broad, "admin": User.objects.get(username="admin"),
                   "owner": User.objects.get(username="owner")}
            transaction.set_rollback(True)


def _the_rest_of_the_world(admin) -> None:
    """One row of each kind the demo seeds do not make, so that its page is opened with a real id."""
    from datetime import timedelta
    from decimal import Decimal

    from django.db.models import Count
    from django.utils import timezone

    from assessments.ledger.adjustments import adjustment_request
    from assessments.ledger.batches import batch_open
    from assessments.models import Account, BankFile
    from assessments.notices.models import MailingBatch, Notice
    from assessments.notices.services import mailing_batches_create
    from assessments.rolls.models import Roll, RollJob, RollLine, RollOverride
    from districts.imports.models import ImportJob
    from franchises.models import Franchise, Hearing, Proceeding
    from liens.models import Lien, LienRuling

    today = timezone.localdate()
    batch_open(cashier=admin, business_date=today, actor=admin)
    adjustment_request(kind="ADJUSTMENT", account=Account.objects.order_by("pk").first(), amount="-10.00",
                       reason="Prueba de páginas", actor=admin)
    BankFile.objects.create(sha256="0" * 64, filename="banco.csv")
    proceeding = Proceeding.objects.create(franchise=Franchise.objects.order_by("pk").first(), cause="ARREARS",
                                           opened_on=today - timedelta(days=30))
    Hearing.objects.create(proceeding=proceeding, requested_on=today - timedelta(days=10))
    ImportJob.objects.create(kind="parcels", file_name="parcelas.csv", sha256="0" * 64, stored_path="imports/x.csv",
                             requested_by=admin)
    parcel_id = (Lien.objects.values("parcel_id").annotate(n=Count("pk")).filter(n__gte=2)
                 .order_by("parcel_id").values_list("parcel_id", flat=True).first())
    lien, other = Lien.objects.filter(parcel_id=parcel_id).order_by("pk")[:2]
    LienRuling.objects.create(parcel_id=lien.parcel_id, higher=lien, lower=other, reference="R-1", decided_by=admin,
                              decided_at=timezone.now())
    source = Notice.objects.order_by("pk").values_list("source_type", flat=True).first()
    if not mailing_batches_create(source_type=source, actor=admin):
        MailingBatch.objects.create(source_type=source, method="REGULAR", pdf="")
    roll = Roll.objects.order_by("pk").first()
    RollJob.objects.create(district_id=roll.district_id, fiscal_year=roll.fiscal_year, operation="certify",
                           requested_by=admin)
    line = RollLine.objects.filter(roll=roll).order_by("pk").first()
    RollOverride.objects.create(line=line, new_total=line.total + Decimal("1.00"), previous_total=line.total,
                                reason="Prueba de páginas", requested_by=admin)


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def fetch(client: Client, method: str, url: str, **kwargs):
    """One request in its own savepoint, always rolled back: a request that writes changes nothing for
    the next. A view's exception comes back as (500, the exception)."""
    try:
        with transaction.atomic():
            response = getattr(client, method)(url, **kwargs)
            transaction.set_rollback(True)
    except Exception as exc:  # noqa: BLE001 — the point is to see every server error
        return 500, f"{type(exc).__name__}: {str(exc)[:300]} (at {_where(exc)})"
    return response.status_code, response


def _where(exc: BaseException) -> str:
    """The innermost frame of the project's own code that the exception went through."""
    import traceback
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename.startswith(str(root)) and "/.venv/" not in f.filename and "/tests/" not in f.filename]
    return f"{Path(frames[-1].filename).relative_to(root)}:{frames[-1].lineno}" if frames else "?"


def first_pk(model, **filters) -> int:
    obj = model._default_manager.filter(**filters).order_by("pk").first() if model else None
    return obj.pk if obj else MISSING


def staff_kwargs(name: str, params: tuple[str, ...]) -> dict:
    """Real ids for the route's kwargs."""
    from assessments.reports import catalog
    from districts.models import District
    from liens.models import Lien

    model = model_for(name)
    kwargs = {}
    for param in params:
        if param == "code":
            if name.startswith("rolls:"):
                kwargs["code"] = apps.get_model("rolls.Roll").objects.order_by("pk").first().district.code
            elif name.startswith("improvement_billing:"):
                kwargs["code"] = District.objects.filter(kind__in=IMPROVEMENT).order_by("pk").first().code
            else:
                kwargs["code"] = District.objects.order_by("pk").first().code
        elif param == "fy":
            kwargs["fy"] = apps.get_model("rolls.Roll").objects.order_by("pk").first().fiscal_year
        elif param == "slug":
            kwargs["slug"] = next(iter(catalog.REPORTS))
        elif param == "action":
            kwargs["action"] = "certify"
        elif name.startswith("liens:") and model is not None and model.__name__ == "Parcel":
            kwargs[param] = Lien.objects.order_by("pk").values_list("parcel_id", flat=True).first() or MISSING
        elif name == "assessments:parcel_account":
            kwargs[param] = apps.get_model("assessments.Account").objects.order_by("pk").first().parcel_id
        else:
            kwargs[param] = first_pk(model)
    return kwargs


def test_routes_are_mapped_and_the_world_has_their_objects(world):
    """Every route with an id kwarg knows its model, and the seeded world holds one of it."""
    unmapped = [n for n, params in STAFF_ROUTES if "pk" in params and model_for(n) is None]
    assert unmapped == []
    empty = sorted({model_for(n).__name__ for n, params in STAFF_ROUTES
                    if model_for(n) is not None and params and first_pk(model_for(n)) == MISSING})
    assert empty == [], f"the seeded world has no {empty}: those pages are only checked with a missing id"


@pytest.mark.parametrize(("name", "params"), STAFF_ROUTES, ids=[n for n, _ in STAFF_ROUTES])
def test_staff_page_never_answers_500(world, name, params):
    url = reverse(name, kwargs=staff_kwargs(name, params))
    failures = []
    broad, admin = client_for(world["broad"]), client_for(world["admin"])
    for who, client in (("broad", broad), ("admin", admin)):
        status, detail = fetch(client, "get", url)
        if status >= 500:
            failures.append((who, url, detail))
    for query in [*JUNK, JUNK_ALL]:
        status, detail = fetch(broad, "get", f"{url}?{query}")
        if status >= 500:
            failures.append(("broad", f"{url}?{query[:80]}", detail))
    if params:  # an id that does not exist is a 404, not a 500
        missing = {k: (MISSING if isinstance(v, int) else "zz-no-existe")
                   for k, v in staff_kwargs(name, params).items()}
        if name.startswith("reports:"):
            missing = {"slug": "zz-no-existe"}
        status, detail = fetch(broad, "get", reverse(name, kwargs=missing))
        if status >= 500:
            failures.append(("broad", reverse(name, kwargs=missing), detail))
    assert not failures, "\n".join(map(str, failures))


FORM_JUNK = [  # every field of a form at once: wrong types, edges, NUL, very long
    "abc", "-1", "99999999999999999999", "1e400", "\x00", "x" * 5000,
]
COMMON_FIELDS = ["amount", "fiscal_year", "date", "on", "paid_on", "received_on", "reason", "note", "kind",
                 "method", "code", "language", "parcel", "party", "district", "status", "round_id", "batch_id",
                 "counted_cash", "file", "tracking_number", "mailed_on", "higher", "lower", "reference"]


@pytest.mark.parametrize(("name", "params"), STAFF_ROUTES, ids=[n for n, _ in STAFF_ROUTES])
def test_staff_form_posts_with_junk_never_answer_500(world, name, params):
    """POST `{}` and the same junk in every field of each of the page's POST forms, to the form's action (a
    POST-only route gets common field names): a page with errors or a redirect with a message, never a 500.
    Each POST is rolled back."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    if name.startswith("reports:"):
        return
    client = client_for(world["broad"])
    url = reverse(name, kwargs=staff_kwargs(name, params))
    targets = [(url, dict.fromkeys(COMMON_FIELDS, "text"))]
    status, page = fetch(client, "get", url)
    if status == 200 and not page.streaming and page["Content-Type"].startswith("text/html"):
        targets = [(action or url, kinds) for action, _values, kinds in _forms(page.content.decode(errors="replace"))
                   if (action or url).startswith("/") and not (action or "").startswith(("/cuentas/", "/i18n/"))]
    failures = []
    for target, kinds in targets:
        for junk in [None, *FORM_JUNK]:
            body = {} if junk is None else {n: junk for n, kind in kinds.items() if kind != "file"}
            for f in [n for n, kind in kinds.items() if kind == "file"]:
                body[f] = SimpleUploadedFile("x.csv", b"\xff\xfegarbage\x00;;\n,,,\n" * 3, "text/csv")
            status, detail = fetch(client, "post", target, data=body)
            if status >= 500:
                failures.append((target, repr(junk)[:20], _text(detail)))
    assert not failures, "\n".join(map(str, failures))


class _FormReader(HTMLParser):
    """The POST forms of a page: [(action, {name: initial value}, {name: input type})]. A select's initial
    value is its selected option, else its first option with a value."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms, self._form, self._select, self._textarea = [], None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = (a.get("action") or "", {}, {}) if (a.get("method") or "").lower() == "post" else None
            if self._form is not None:
                self.forms.append(self._form)
            return
        if self._form is None:
            return
        values, kinds = self._form[1], self._form[2]
        if tag == "option" and self._select:
            value = a.get("value") or ""
            if "selected" in a or (value and not values.get(self._select)):
                values[self._select] = value
            return
        name = a.get("name")
        if not name or name == "csrfmiddlewaretoken":
            return
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "button", "image"):
                return
            kinds.setdefault(name, kind)
            if kind == "file":
                return
            if kind not in ("checkbox", "radio") or "checked" in a:
                values[name] = a.get("value") or ("on" if kind == "checkbox" else "")
        elif tag == "select":
            self._select, kinds[name] = name, "select"
            values.setdefault(name, "")
        elif tag == "textarea":
            self._textarea, kinds[name], values[name] = name, "textarea", ""

    def handle_data(self, data):
        if self._textarea and self._form is not None:
            self._form[1][self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def _forms(html: str) -> list[tuple[str, dict, dict]]:
    reader = _FormReader()
    reader.feed(html)
    return reader.forms


def _edge_values(name: str, kind: str) -> list[str]:
    if kind == "date" or name.endswith("_on") or "date" in name:
        return ["9999-12-31", "0001-01-01"]
    if kind == "number" or any(w in name for w in ("amount", "year", "pct", "gallons", "acres", "value", "total",
                                                   "collected", "charge", "count", "rate", "days")):
        return ["-1", "99999999999999999999"]
    if kind in ("select", "checkbox", "radio", "hidden"):
        return [str(MISSING)]
    return ["x" * 5000]


@pytest.mark.parametrize(("name", "params"), STAFF_ROUTES, ids=[n for n, _ in STAFF_ROUTES])
def test_staff_form_one_field_at_the_edge_never_answers_500(world, name, params):
    """Each POST form of the page filled with its own initial values, then one field at a time at the edge
    (a date in year 9999 or 1, a negative or huge number, a missing choice, very long text): the page
    answers with the error, never a 500. Each POST is rolled back."""
    if name.startswith("reports:"):
        return
    client = client_for(world["broad"])
    url = reverse(name, kwargs=staff_kwargs(name, params))
    status, page = fetch(client, "get", url)
    if status != 200 or page.streaming or not page["Content-Type"].startswith("text/html"):
        return
    failures = []
    for action, values, kinds in _forms(page.content.decode(errors="replace")):
        target = action or url
        if not target.startswith("/") or target.startswith(("/cuentas/", "/i18n/")):
            continue
        for field in [f for f in kinds if kinds[f] != "file"][:20]:
            for edge in _edge_values(field, kinds[field]):
                status, detail = fetch(client, "post", target, data={**values, field: edge})
                if status >= 500:
                    failures.append((target, field, edge[:20], _text(detail)))
    assert not failures, "\n".join(map(str, failures))


def _report_slugs():
    from assessments.reports import catalog

    return list(catalog.REPORTS)


@pytest.mark.parametrize("slug", _report_slugs())
def test_every_report_never_answers_500(world, slug):
    client = client_for(world["broad"])
    url = reverse("reports:report", kwargs={"slug": slug})
    failures = []
    for query in ["", *JUNK, JUNK_ALL, "format=csv", "format=xlsx", "start=2026-07-01&end=2025-07-01"]:
        status, detail = fetch(client, "get", f"{url}?{query}")
        if status >= 500:
            failures.append((query[:80], detail))
    assert not failures, "\n".join(map(str, failures))


# ----------------------------------------------------------------------------------------------- the API

API_MODELS = [  # path prefix (under /api/v1/) of an {id} -> the model it names
    ("accounts/", "assessments.Account"), ("districts/", "districts.District"),
    ("franchise-billing/franchises/", "franchises.Franchise"), ("franchises/applications/", "franchises.Application"),
    ("franchises/", "franchises.Franchise"), ("improvement-billing/runs/", "improvement_billing.BillingRun"),
    ("improvement/ordinances/", "districts.TidOrdinance"),
    ("improvement/sid-batches/", "districts.SidCollectionBatch"),
    ("improvement/sid-resolutions/", "districts.SidResolution"),
    ("improvement/tid-petitions/", "districts.TidPetition"),
    ("memberships/", "districts.Membership"), ("offices/", "districts.Office"), ("parcels/", "districts.Parcel"),
    ("parties/", "districts.Party"), ("portal/accounts/", "assessments.Account"),
    ("portal/notices/", "notices.Notice"), ("portal/parcels/", "districts.Parcel"),
    ("portal/payments/", "assessments.Payment"), ("rolls/", "rolls.Roll"),
    ("water-deliveries/", "districts.WaterDelivery"),
]
GARBAGE = [  # (content type, raw body)
    ("application/json", b"{not json"), ("application/json", b"[1, 2, 3]"), ("application/json", b'"abc"'),
    ("application/json", b"null"), ("application/json", b"\xff\xfe\x00"), ("text/plain", b"hola"),
    ("application/x-www-form-urlencoded", b"amount=abc&fiscal_year=x&received_on=2026-02-30"),
    ("multipart/form-data; boundary=zz", b"--zz\r\nbroken"),
]
ACCEPTED_ERRORS = {400, 403, 404, 405, 409, 415}


def _schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


SCHEMA = _schema()
COMPONENTS = SCHEMA["components"]["schemas"]


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        node = COMPONENTS[node["$ref"].rsplit("/", 1)[-1]]
    if "oneOf" in node or "allOf" in node:
        return _resolve((node.get("oneOf") or node.get("allOf"))[0])
    return node


def _operations(methods: set[str]) -> list[tuple[str, str, dict]]:
    return [(method, path, op) for path, ops in SCHEMA["paths"].items() for method, op in ops.items()
            if method in methods]


def api_id(path: str, world_ids: dict) -> str:
    rest = path.removeprefix("/api/v1/")
    if rest.startswith("parcels/{id}/liens"):
        return str(world_ids["lien_parcel"])
    for prefix, label in API_MODELS:
        if rest.startswith(prefix):
            return str(first_pk(apps.get_model(label)))
    raise AssertionError(f"no model known for the id of {path}")


def bad_value(prop: dict, variant: int):
    """A value of the wrong type (variant 0), at the edge (1) or out of range / malformed (2)."""
    prop = _resolve(prop)
    kind, fmt = prop.get("type"), prop.get("format")
    if "enum" in prop:
        return ["zzz", "", 7][variant]
    if kind == "integer":
        return ["abc", 99999999999999999999, -1][variant]
    if kind == "number" or fmt == "decimal":
        return ["abc", "-100.00", "1e400"][variant]
    if fmt == "date":
        return ["2026-02-30", "9999-12-31", "2026-13-01"][variant]
    if fmt == "date-time":
        return ["2026-02-30T25:00", "9999-12-31T23:59:59", "ayer"][variant]
    if kind == "boolean":
        return ["maybe", None, [True]][variant]
    if kind == "array":
        return ["notalist", [{}], [None, "x" * 300]][variant]
    if kind == "object":
        return ["x", {"a": {"b": None}}, []][variant]
    return [{"nested": True}, "x" * 5000, "\x00"][variant]


# Every property of every component: two serializers named alike ("Input") share one component in the
# schema, so an operation's own component may not list its fields; unknown keys are ignored by the API.
ALL_PROPS = {name: prop for component in COMPONENTS.values() for name, prop in
             (component.get("properties") or {}).items() if not prop.get("readOnly")}


def bad_bodies(op: dict) -> list[dict]:
    content = op.get("requestBody", {}).get("content", {})
    schema = _resolve(next(iter(content.values()))["schema"]) if content else {}
    props = {**ALL_PROPS, **(schema.get("properties") or {})}
    return [{name: bad_value(p, v) for name, p in props.items()} for v in range(3)]


@pytest.fixture(scope="module")
def world_ids(world):
    from liens.models import Lien

    return {"lien_parcel": Lien.objects.order_by("pk").values_list("parcel_id", flat=True).first()}


GETS = _operations({"get"})


def test_the_schema_served_lists_the_endpoints_checked_here(world):
    """The endpoints below come from the same schema /api/v1/schema/ serves."""
    response = client_for(world["broad"]).get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert set(json.loads(response.content)["paths"]) == set(SCHEMA["paths"])


@pytest.mark.parametrize(("method", "path", "op"), GETS, ids=[p for _, p, _ in GETS])
def test_api_get_never_answers_500(world, world_ids, method, path, op):
    client = client_for(world["admin"])
    failures = []
    urls = [path.replace("{id}", api_id(path, world_ids)), path.replace("{id}", str(MISSING))] \
        if "{id}" in path else [path]
    junk = "&".join(f"{p['name']}=zz%27-2026-02-30" for p in op.get("parameters", []) if p["in"] == "query")
    for url in urls:
        for query in ["", "page=abc", "page=99999", "format=zzz", "ordering=-zzz", "district=%00", junk]:
            status, detail = fetch(client, "get", f"{url}?{query}" if query else url)
            if status >= 500:
                failures.append((url, query[:80], detail))
    assert not failures, "\n".join(map(str, failures))


WRITES = [(m, p, op) for m, p, op in _operations({"post", "put", "patch"}) if "{calculation}" not in p]


@pytest.mark.parametrize(("method", "path", "op"), WRITES, ids=[f"{m}-{p}" for m, p, _ in WRITES])
def test_api_bad_bodies_are_4xx(world, world_ids, method, path, op):
    """`{}`, wrong types, edge values and bodies that are not JSON: a 4xx with details, never a 500 (nor a
    2xx: such a body must never be accepted)."""
    client = client_for(world["broad"])
    urls = [path.replace("{id}", api_id(path, world_ids)), path.replace("{id}", str(MISSING))] \
        if "{id}" in path else [path]
    failures = []
    for url in urls:
        for body in [{}, *bad_bodies(op)]:
            status, detail = fetch(client, method, url, data=json.dumps(body), content_type="application/json")
            if status not in ACCEPTED_ERRORS and not (body == {} and status < 300 and not _required(op)):
                failures.append((url, json.dumps(body)[:160], status, _text(detail)))
        for content_type, raw in GARBAGE:
            status, detail = fetch(client, method, url, data=raw, content_type=content_type)
            ignored = not content_type.endswith("json") and not _required(op)  # unknown form keys: like {}
            if status not in ACCEPTED_ERRORS and not (ignored and status < 300):
                failures.append((url, raw[:40], status, _text(detail)))
    assert not failures, "\n".join(map(str, failures))


def _input_serializer(path: str):
    """The serializer class a write view validates its body with."""
    import inspect
    import sys

    from django.urls import resolve
    from rest_framework import serializers

    view = resolve(path).func.cls
    found = [c for n, c in inspect.getmembers(view) if inspect.isclass(c) and issubclass(c, serializers.Serializer)
             and ("Input" in n or n == "Body")]
    if not found:
        module = sys.modules[view.__module__]
        found = [getattr(module, n) for n in re.findall(r"(\w+Input)\(", inspect.getsource(view))
                 if hasattr(module, n)]
    return found[0] if found else None


def _plausible(name: str, field):
    """A valid-looking value for one serializer field, from the world where it names a record."""
    from rest_framework import serializers as s

    if isinstance(field, s.SlugRelatedField):
        obj = field.get_queryset().order_by("pk").first()
        return getattr(obj, field.slug_field) if obj else "zz"
    if isinstance(field, s.PrimaryKeyRelatedField):
        obj = field.get_queryset().order_by("pk").first()
        return obj.pk if obj else MISSING
    if isinstance(field, s.ChoiceField):
        return next(iter(field.choices))
    if isinstance(field, s.DateField):
        return "2026-08-03"
    if isinstance(field, s.DecimalField):
        return "10.00"
    if isinstance(field, s.IntegerField):
        return 2027 if "year" in name and "years" not in name else max(field.min_value or 0, 2)
    if isinstance(field, s.BooleanField):
        return True
    if isinstance(field, s.ListField):
        return ["01-01", "07-01"] if "date" in name else []
    if isinstance(field, s.SlugField):
        from districts.models import District

        return District.objects.filter(kind__in=IMPROVEMENT).order_by("pk").values_list("code", flat=True).first()
    return "1" if name == "formula" else "Prueba"


def _edges(field) -> list:
    """Values of the right type that are out of range or meaningless for the record."""
    from rest_framework import serializers as s

    if isinstance(field, s.DateField):
        return ["9999-12-31", "0001-01-01", "1900-01-01"]
    if isinstance(field, s.DecimalField):
        return ["-100.00", "0", "999999999999.99", "0.001"]
    if isinstance(field, s.IntegerField):
        return [-1, 0, 32768, 2147483648]
    if isinstance(field, (s.SlugRelatedField, s.SlugField)):
        return ["zz", "x" * 300]
    if isinstance(field, s.PrimaryKeyRelatedField):
        return [MISSING, 0]
    if isinstance(field, s.ListField):
        return [[], ["99-99"], ["x" * 100] * 50, [None]]
    if isinstance(field, s.ChoiceField):
        return [""]
    if isinstance(field, s.CharField):
        return ["x" * 5000, "", " "]
    return []


EDGE_WRITES = [(m, p) for m, p, _ in WRITES if not p.startswith("/api/v1/portal/")]


@pytest.mark.parametrize(("method", "path"), EDGE_WRITES, ids=[f"{m}-{p}" for m, p in EDGE_WRITES])
def test_api_one_field_at_the_edge_never_answers_500(world, world_ids, method, path):
    """A valid-looking body with one field at a time out of range (dates 9999-12-31, negative amounts,
    ids that do not exist, very long text): validation or the service refuses it, never a 500."""
    url = path.replace("{id}", api_id(path, world_ids)) if "{id}" in path else path
    serializer = _input_serializer(url)
    assert serializer is not None, f"no input serializer found for {path}"
    fields = {n: f for n, f in serializer().fields.items() if not f.read_only}
    base = {n: _plausible(n, f) for n, f in fields.items()}
    client = client_for(world["broad"])
    failures = []
    for name, field in fields.items():
        for edge in _edges(field):
            body = {**base, name: edge}
            status, detail = fetch(client, method, url, data=json.dumps(body), content_type="application/json")
            if status >= 500:
                failures.append((url, name, str(edge)[:30], _text(detail)))
    assert not failures, "\n".join(map(str, failures))


def _required(op: dict) -> list:
    content = op.get("requestBody", {}).get("content", {})
    return _resolve(next(iter(content.values()))["schema"]).get("required", []) if content else []


def _text(detail) -> str:
    if isinstance(detail, str):
        return detail
    return detail.content[:200].decode(errors="replace")


def _compute_inputs() -> list[tuple[str, dict]]:
    """One example input per calculation (tests/data/examples), to break one field at a time."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "data" / "examples"
    found = {}
    for file in sorted(folder.glob("*.json")):
        calc = file.name.split(".", 1)[0]
        if calc in found or file.name.endswith(".expected.json"):
            continue
        data = json.loads(file.read_text())
        found[calc] = data[0]["input"] if isinstance(data, list) else data
    return sorted(found.items())


COMPUTE = _compute_inputs()


@pytest.mark.parametrize(("calculation", "example"), COMPUTE, ids=[c for c, _ in COMPUTE])
def test_compute_bad_inputs_are_400(world, calculation, example):
    """The example with each field (and each field of a list's first item) broken: 400, never 500."""
    client = client_for(world["broad"])
    url = f"/api/v1/compute/{calculation}/"
    assert fetch(client, "post", url, data=json.dumps(example), content_type="application/json")[0] == 200
    broken = [{}, [], "abc"]
    wrong = ["abc", -1, None, [], {}, "2026-02-30", "9999-12-31", 99999999999999999999, "1e400", "x" * 3000]
    for key, value in example.items():
        for bad in wrong:
            broken.append({**example, key: bad})
        if isinstance(value, list) and value and isinstance(value[0], dict):
            for sub in value[0]:
                for bad in wrong:
                    broken.append({**example, key: [{**value[0], sub: bad}, *value[1:]]})
    failures = []
    for body in broken:
        status, detail = fetch(client, "post", url, data=json.dumps(body), content_type="application/json")
        if status >= 500:
            failures.append((json.dumps(body)[:200], _text(detail)))
    for content_type, raw in GARBAGE:
        status, detail = fetch(client, "post", url, data=raw, content_type=content_type)
        if status >= 500:
            failures.append((raw[:40], _text(detail)))
    assert not failures, f"{len(failures)} of {len(broken)}:\n" + "\n".join(map(str, failures[:15]))


# ---------------------------------------------------------------------------------------- the owners' portal

PORTAL_PAGES = ["portal:parcel", "portal:notice_pdf", "portal:account", "portal:receipt_pdf"]
PORTAL_API = ["/api/v1/portal/notices/{}/", "/api/v1/portal/notices/{}/pdf/", "/api/v1/portal/parcels/{}/",
              "/api/v1/portal/accounts/{}/", "/api/v1/portal/payments/{}/", "/api/v1/portal/payments/{}/receipt/"]


def _not_the_owners(world) -> dict[str, int]:
    """An existing id of each kind that is not the demo owner's (another owner's record)."""
    from assessments.models import Account, Payment
    from assessments.notices.models import Notice
    from districts.models import Parcel, Party

    party = Party.objects.get(user=world["owner"])
    parcels = Parcel.objects.exclude(ownerships__party=party)
    return {"parcel": parcels.order_by("pk").first().pk,
            "account": Account.objects.filter(parcel__in=parcels).order_by("pk").first().pk,
            "notice": Notice.objects.filter(receivable__account__parcel__in=parcels).order_by("pk").first().pk,
            "payment": Payment.objects.filter(account__parcel__in=parcels).order_by("pk").first().pk}


def test_portal_pages_and_api_with_ids_not_the_owners_are_404(world):
    client = client_for(world["owner"])
    others = _not_the_owners(world)
    kinds = {"portal:parcel": "parcel", "portal:notice_pdf": "notice", "portal:account": "account",
             "portal:receipt_pdf": "payment"}
    failures = []
    for name in PORTAL_PAGES:
        for pk in (MISSING, others[kinds[name]], 0):
            url = reverse(name, kwargs={"pk": pk})
            status, detail = fetch(client, "get", url)
            if status != 404:
                failures.append((url, status, _text(detail)))
    for pattern in PORTAL_API:
        kind = pattern.split("/")[4].rstrip("s")
        for pk in (MISSING, others[kind], 0):
            url = pattern.format(pk)
            status, detail = fetch(client, "get", url)
            if status != 404:
                failures.append((url, status, _text(detail)))
    for url in ["/api/v1/portal/notices/abc/", "/portal/parcelas/abc/"]:
        status, detail = fetch(client, "get", url)
        if status != 404:
            failures.append((url, status, _text(detail)))
    assert not failures, "\n".join(map(str, failures))


def test_portal_lists_and_forms_with_junk_never_answer_500(world):
    client = client_for(world["owner"])
    failures = []
    for name in ["portal:home", "portal:notices", "portal:payments", "portal:notice_language", "portal:activate"]:
        for query in ["", *JUNK, JUNK_ALL]:
            url = reverse(name) + (f"?{query}" if query else "")
            status, detail = fetch(client, "get", url)
            if status >= 500:
                failures.append((url[:120], status, _text(detail)))
        for data in [{}, {"language": "zz"}, {"language": "x" * 5000}, {"code": "\x00"}]:
            status, detail = fetch(client, "post", reverse(name), data=data)
            if status >= 500:
                failures.append((reverse(name), data, status, _text(detail)))
    for url in ["/api/v1/portal/notices/", "/api/v1/portal/parcels/", "/api/v1/portal/accounts/",
                "/api/v1/portal/payments/", "/api/v1/portal/notice-language/"]:
        for query in ["", "page=abc", "page=99999", "format=zzz"]:
            status, detail = fetch(client, "get", f"{url}?{query}")
            if status >= 500:
                failures.append((url, query, status, _text(detail)))
    for body in [{}, {"language": "zz"}, {"language": None}, [1]]:
        status, detail = fetch(client, "put", "/api/v1/portal/notice-language/", data=json.dumps(body),
                               content_type="application/json")
        if status not in ACCEPTED_ERRORS:
            failures.append(("PUT notice-language", body, status, _text(detail)))
    for content_type, raw in GARBAGE:
        status, detail = fetch(client, "put", "/api/v1/portal/notice-language/", data=raw, content_type=content_type)
        if status not in ACCEPTED_ERRORS:
            failures.append(("PUT notice-language", raw[:40], status, _text(detail)))
    assert not failures, "\n".join(map(str, failures))


def test_a_nul_character_in_the_query_is_a_400_naming_the_parameter(world):
    client = client_for(world["broad"])
    response = client.get(reverse("districts:parcel_list") + "?q=%00")
    assert response.status_code == 400
    assert "«q»" in response.content.decode()
    response = client.get("/api/v1/parcels/?search=a%00b")
    assert response.status_code == 400
    assert "search" in response.json()
    response = client.post("/api/v1/improvement/tid-petitions/", data=json.dumps({"district": "a\x00"}),
                           content_type="application/json")
    assert response.status_code == 400
    assert "district" in response.json()


def test_the_inputs_that_were_500s_are_now_clear_refusals(world):
    """The server errors this file found, each now a refusal that names the field or the value."""
    client = client_for(world["broad"])

    def post(url, body):
        return client.post(url, data=json.dumps(body), content_type="application/json")

    # compute: a number too large to round to the cent, a clock that is not a name, a term past year 9999
    response = post("/api/v1/compute/sid-remittance/", {"collected": "1e400"})
    assert response.status_code == 400 and response.json()["error"]["field"] == "collected"
    response = post("/api/v1/compute/deadline/", {"clock": [], "start": "2026-06-03"})
    assert response.status_code == 400 and response.json()["error"]["field"] == "clock"
    response = post("/api/v1/compute/lajas-surcharge/", {"installment": "1.00", "due_date": "9999-12-31",
                                                          "paid_on": "2026-08-30"})
    assert response.status_code == 400 and response.json()["error"]["field"] == "due_date"
    # a statutory clock started on a date no deadlines version covers
    from districts.models import District, Municipality

    tid = District.objects.filter(kind=District.Kind.TID).order_by("pk").first()
    response = post("/api/v1/improvement/tid-petitions/", {
        "district": tid.code, "municipality": Municipality.objects.order_by("pk").first().name,
        "petition_text": "Petición", "legislature_received_on": "9999-12-31"})
    assert response.status_code == 400 and "9999-12-31" in json.dumps(response.json())
    # "next" that is not a path: back to the list, not a reverse() of the word
    from core.models import Flag

    flag = Flag.objects.order_by("pk").first()
    response = client.post(reverse("core:flag_assign", kwargs={"pk": flag.pk}), {"next": "987654321"})
    assert response.status_code == 302 and response.url == reverse("core:flag_list")


@pytest.mark.django_db
def test_a_nul_character_in_a_public_path_is_a_400(client):
    """The public iCal feed takes its token from the path: a NUL there is refused before the lookup."""
    response = client.get("/calendario/ical/%00.ics")
    assert response.status_code == 400
