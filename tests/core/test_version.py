"""One version number: config/version.py and pyproject.toml agree; the footer shows it."""
import tomllib
from pathlib import Path

import pytest

from config.version import __version__


def test_version_module_and_pyproject_agree():
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert pyproject["project"]["version"] == __version__
    assert __version__.count(".") == 2 and all(part.isdigit() for part in __version__.split("."))


@pytest.mark.django_db
def test_footer_shows_the_version(client):
    html = client.get("/cuentas/login/").content.decode()
    footer = html[html.index('<footer class="footer">'):]
    assert f"v{__version__}" in footer[:footer.index("</footer>")]
