"""The Content-Security-Policy (core/csp.py, docs/security/csp.md): on every HTML response, strict (no
'unsafe-inline'), and possible because no served template has an inline style, script or handler."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from core.csp import CONTENT_SECURITY_POLICY

ROOT = Path(settings.BASE_DIR)
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
          "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'")

# Not web pages, so they keep their inline styles: the policy never applies to them.
EXEMPT = {
    # Rendered to PDF by WeasyPrint (core.documents.services.document_render and the benchmarks).
    "templates/documents/base_document.html",
    "templates/documents/letter.html",
    "templates/liens/certificate.html",
    "templates/assessments/ledger/certificate_pdf.html",
    "templates/assessments/ledger/receipt_pdf.html",
    "templates/reports/report_pdf.html",
    "templates/notices/notice.html",
    "templates/notices/_addressee.html",
    # E-mail (mail clients need inline styles).
    "templates/core/dashboard/digest_email.html",
    "templates/registration/password_reset_email.html",
}
INLINE = [
    ("a style= attribute", re.compile(r"\sstyle\s*=", re.I)),
    ("a <style> element", re.compile(r"<style[\s>]", re.I)),
    ("an inline <script> (no src)", re.compile(r"<script(?![^>]*\bsrc\s*=)[^>]*>", re.I)),
    ("an on*= event handler", re.compile(r"\son[a-z]+\s*=", re.I)),
]


def served_templates() -> list[Path]:
    dirs = [ROOT / "templates"] + [p for p in ROOT.glob("*/templates") if p.is_dir()] + \
        [p for p in ROOT.glob("*/*/templates") if p.is_dir() and ".venv" not in p.parts]
    return sorted({f for d in dirs for f in d.rglob("*.html")})


def test_the_policy_is_the_documented_constant_and_strict():
    assert CONTENT_SECURITY_POLICY == POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY and "unsafe-eval" not in CONTENT_SECURITY_POLICY
    assert POLICY in (ROOT / "docs/security/csp.md").read_text(encoding="utf-8")
    assert settings.MIDDLEWARE.index("core.csp.ContentSecurityPolicyMiddleware") == \
        settings.MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1


def test_the_exempt_templates_exist_and_are_pdf_or_email():
    for rel in EXEMPT:
        path = ROOT / rel
        assert path.exists(), rel
        text = path.read_text(encoding="utf-8")
        assert ("documents/base_document.html" in text or rel.endswith(("base_document.html", "notice.html",
                                                                        "_addressee.html"))
                or "email" in rel), rel


def test_every_document_rendered_to_pdf_is_exempt():
    """A template passed to document_render is a PDF; every one is in EXEMPT (and no web page is)."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in ROOT.glob("*/**/*.py")
                     if ".venv" not in p.parts and "tests" not in p.parts)
    names = set(re.findall(r'document_render\(\s*template_name="([^"]+)"', code))
    names |= set(re.findall(r'^(?:REPORT_)?TEMPLATE = "([^"]+)"', code, re.M))
    assert names >= {"liens/certificate.html", "reports/report_pdf.html", "notices/notice.html"}
    assert {f"templates/{n}" for n in names} <= EXEMPT


def test_no_served_template_has_inline_style_script_or_handler():
    found = []
    for path in served_templates():
        rel = str(path.relative_to(ROOT))
        if rel in EXEMPT:
            continue
        text = path.read_text(encoding="utf-8")
        for what, pattern in INLINE:
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{rel}:{line}: {what}")
    assert not found, "\n".join(found)
    assert len(served_templates()) > 100  # the walk found the templates


PAGES_ANONYMOUS = ["/cuentas/login/", "/verificar/", "/admin/login/", "/no-such-page/"]
PAGES_STAFF = ["/", "/registro/parcelas/", "/padrones/", "/api/v1/docs/", "/informes/"]
PAGES_ADMIN = ["/admin/", "/admin/auth/user/", "/admin/auth/user/add/"]


def _assert_strict(response):
    assert response["Content-Type"].startswith("text/html")
    assert response["Content-Security-Policy"] == POLICY
    body = response.content.decode()
    assert not re.search(r"<style[\s>]|\sstyle\s*=|\son[a-z]+\s*=\s*[\"']", body), response.request["PATH_INFO"]
    assert not re.search(r"<script(?![^>]*\bsrc\s*=)[^>]*>", body), response.request["PATH_INFO"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES_ANONYMOUS)
def test_public_pages_carry_the_policy(client, url):
    _assert_strict(client.get(url))


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES_STAFF)
def test_staff_pages_carry_the_policy(client, staff_user, url):
    client.force_login(staff_user)
    response = client.get(url)
    assert response.status_code == 200
    _assert_strict(response)


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES_ADMIN)
def test_admin_pages_carry_the_policy(client, django_user_model, url):
    client.force_login(django_user_model.objects.create_superuser("root.csp", "root@example.pr", "pw-Test-12345"))
    response = client.get(url)
    assert response.status_code == 200
    _assert_strict(response)


@pytest.mark.django_db
def test_the_swagger_init_script_is_a_separate_same_origin_response(client, staff_user):
    client.force_login(staff_user)
    page = client.get("/api/v1/docs/").content.decode()
    src = re.search(r'<script src="([^"]*script[^"]*)"', page).group(1).replace("&amp;", "&")
    script = client.get(src)
    assert script.status_code == 200 and "javascript" in script["Content-Type"]
    assert "SwaggerUIBundle" in script.content.decode()


@pytest.mark.django_db
def test_json_responses_are_left_alone(client):
    response = client.get("/healthz")
    assert "Content-Security-Policy" not in response
