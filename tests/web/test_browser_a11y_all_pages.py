"""Issue #17, the full walk: EVERY staff page and every page of the Django admin passes axe-core (no serious
or critical violations), has a skip link (staff pages), marks at most one current page in the menu and does
not scroll sideways in a 1,024 px window.

The routes and their real ids come from tests/web/test_no_server_errors.py (`STAFF_ROUTES`, `staff_kwargs`):
each named GET staff route is visited once. Whether a route answers HTML is asked first with the browser
context's own request (same session cookie), so downloads (PDF, CSV, XLSX, JSON, ICS) and POST-only routes
are left out without the browser starting a download. The world is the demo seeds at a small size (the
fixture of tests/web/test_browser_csp.py) plus one row of each kind the seeds do not make. One browser page
is reused for every visit; every problem is collected and reported at the end as page → rule → target.
"""
from __future__ import annotations

import ast
import os
import re

import pytest
from django.urls import reverse

from tests.conftest import second_step, sign_in
from tests.web.a11y import axe_violations, layout_problems
from tests.web.test_browser_csp import PASSWORD, world  # noqa: F401 (fixture)
from tests.web.test_no_server_errors import STAFF_ROUTES, _the_rest_of_the_world, staff_kwargs

pytestmark = [pytest.mark.browser, pytest.mark.postgres,
              pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SHOTS = os.environ.get("A11Y_SHOTS")  # a directory: a full-page screenshot of each page visited
HTML = "text/html"

# Violations that come from Django's own admin (its templates, widgets and JavaScript under
# django/contrib/admin/), which an override in templates/admin/ cannot fix short of copying Django's template
# or widget. Each entry: axe rule id → (a pattern EVERY reported target must match, why). A violation of the
# same rule on any other element still fails the test.
ADMIN_ALLOWED: dict[str, tuple[str, str]] = {
    # admin/edit_inline/tabular.html labels each column once, in its <th>, not each row's input; and
    # AdminSplitDateTime renders date and time as two inputs (`_0`, `_1`) for one <label>.
    "label": (r"^#id_(\w+-\d+-\w+|\w+_[01])$", "Django's tabular inline rows and split date/time widget"),
    "select-name": (r"^#id_\w+-\d+-\w+$", "Django's tabular inline rows: the column <th> names the select"),
    # SelectFilter2.js (filter_horizontal) builds <span class="help-tooltip search-label-icon" aria-label=…>
    # with no role, in JavaScript: no template to override.
    "aria-prohibited-attr": (r"help-tooltip\.search-label-icon", "Django's filter_horizontal widget (JavaScript)"),
    # autocomplete_fields: Django's vendored Select2 makes a role=combobox <span> with no name of its own.
    "aria-input-field-name": (r"select2", "Django's autocomplete widget (vendored Select2)"),
    # django-otp's device admins (otp_totp, otp_static): Django's admin/search_form.html labels the search box
    # with its magnifier icon only; axe reports it there as title-only. Django's template, not ours.
    "label-title-only": (r"^#searchbar$", "Django's admin search box on django-otp's device lists"),
}


def _visit(page, base, path, problems, *, menu=True):
    """Open the page (it is known to answer 200 with HTML) and record what is wrong with it."""
    response = page.goto(base + path)
    page.wait_for_load_state("networkidle")
    if response is None or response.status != 200:
        problems.append(f"{path}: status {response.status if response else '—'} in the browser")
        return
    if SHOTS:
        name = path.strip("/").replace("/", "_") or "home"
        page.screenshot(path=f"{SHOTS}/a11y-all-{name[:80]}.png", full_page=True)
    found = axe_violations(page)
    if not menu:
        found = [v for v in found if not _allowed_in_admin(v)]
    problems.extend(found)
    problems.extend(layout_problems(page, path, menu=menu))


def _allowed_in_admin(violation: str) -> bool:
    """The violation (a line of `axe_violations`: "url: rule (impact) help → [targets]") is on the
    allow-list: its rule is listed and every target it names matches the rule's pattern."""
    rule = violation.split(": ", 1)[1].split(" ", 1)[0]
    if rule not in ADMIN_ALLOWED:
        return False
    targets = ast.literal_eval(violation.rsplit(" → ", 1)[1])
    return all(re.search(ADMIN_ALLOWED[rule][0], t) for t in targets)


def _answers_html(page, base, path) -> bool:
    """GET through the browser context's request API (the signed-in session): 200 with an HTML body."""
    response = page.request.get(base + path, max_redirects=0)
    return response.status == 200 and response.headers.get("content-type", "").startswith(HTML)


def _admin_paths() -> list[str]:
    """The admin's index, every registered model's changelist and one change form per model with a row."""
    from django.contrib import admin

    paths = [reverse("admin:index")]
    for model in sorted(admin.site._registry, key=lambda m: m._meta.label):
        opts = model._meta
        paths.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
        obj = model._default_manager.order_by("pk").first()
        if obj is not None:
            paths.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]))
    return paths


def test_every_staff_and_admin_page_passes_the_accessibility_check(live_server, browser, world, django_user_model):  # noqa: F811
    _the_rest_of_the_world(django_user_model.objects.get(username="admin"))
    context = browser.new_context(locale="es-PR", viewport={"width": 1024, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20000)
    base, problems, visited = live_server.url, [], 0
    try:
        # The broad staff user (staff, cashier, approver, legal reviewer) of the world fixture.
        sign_in(page, base, world.username, PASSWORD)
        paths = [reverse(name, kwargs=staff_kwargs(name, params)) for name, params in STAFF_ROUTES]
        for path in dict.fromkeys(paths):
            if _answers_html(page, base, path):
                _visit(page, base, path, problems)
                visited += 1

        # The Django admin, as the administrator.
        page.context.clear_cookies()
        page.goto(f"{base}/admin/login/")
        page.fill("#id_username", "admin")
        page.fill("#id_password", PASSWORD)
        with page.expect_navigation():
            page.click("input[type=submit]")
        second_step(page, base, "admin", "/admin/")
        for path in _admin_paths():
            if _answers_html(page, base, path):
                _visit(page, base, path, problems, menu=False)
                visited += 1
    finally:
        context.close()
    assert visited > 100, f"only {visited} pages answered HTML: the walk is not reaching the pages"
    assert not problems, f"{len(problems)} problems on {visited} pages:\n" + "\n".join(problems)
