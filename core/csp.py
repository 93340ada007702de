"""Content-Security-Policy on every HTML response: scripts, styles and everything else from this site only.

Nothing in a served page is inline (no <style>, no style= attribute, no inline <script>, no on*=
handler): styles live in static/css/app.css, scripts in static/js/*.js. So the policy needs neither
'unsafe-inline' nor nonces. Templates rendered to PDF by WeasyPrint and e-mail templates are not web
pages and keep their inline styles (tests/web/test_csp.py lists them). See docs/security/csp.md.
"""
from __future__ import annotations

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response
