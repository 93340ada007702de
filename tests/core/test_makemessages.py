"""`manage.py makemessages` extracts strings marked through the project's gettext aliases (`_t`, `L`).

Runs into a temporary folder (LOCALE_PATHS and the working directory point there): locale/ is untouched.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from core.management.commands.makemessages import gettext_aliases

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = '''
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext as n_
from django.utils.translation import pgettext_lazy as P

L = gettext_lazy

A = _t("Cadena por alias _t")
B = L("Cadena por alias L")
C = n_("%(n)s fila", "%(n)s filas", 2)
D = P("registro", "Parcela")
E = gettext_lazy("Cadena por gettext_lazy")
'''


def test_the_project_aliases_are_found():
    aliases = gettext_aliases(ROOT)
    assert {"_t": "", "L": ""}.items() <= aliases.items()
    assert "_" not in aliases and "gettext_lazy" not in aliases


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext (apt-get install gettext)")
def test_makemessages_extracts_aliases_into_a_tmp_locale(tmp_path, settings, monkeypatch):
    src = tmp_path / "src"
    src.mkdir()
    (src / "sample.py").write_text(SAMPLE, encoding="utf-8")
    for rel in ("liens/views.py", "franchises/views.py", "districts/imports/columns.py"):
        target = src / rel.replace("/", "_")
        target.write_text((ROOT / rel).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)

    call_command("makemessages", locale=["en"], verbosity=0, no_obsolete=True)

    po = (tmp_path / "locale" / "en" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    for msgid in ("Cadena por alias _t", "Cadena por alias L", "Cadena por gettext_lazy", "%(n)s filas"):
        assert f'"{msgid}"' in po, msgid
    assert 'msgctxt "registro"' in po
    # Real strings of the project marked only through an alias:
    assert '"Revise el estado y la fecha."' in po  # liens/views.py, _t(...)
    assert '"Personas y entidades"' in po  # districts/imports/columns.py, L(...)
