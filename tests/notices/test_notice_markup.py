"""The notice's markup stays what the fast path of core.documents.pdf needs: well-formed XML (parsed
by the C XML parser, not the pure-Python HTML5 one) with line breaks as newlines in `pre-line`
blocks. No timing assertions: speed is measured by benchmarks/notices.py."""
from __future__ import annotations

from xml.etree import ElementTree

import pytest

from assessments.models import Receivable
from assessments.notices import services
from assessments.rolls.billing import source_type
from core.documents import pdf
from tests.notices.conftest import pdf_text


def _tree(element) -> list:
    return [(e.tag, sorted(e.attrib.items()), (e.text or "").strip(), (e.tail or "").strip()) for e in element.iter()]


def test_lean_html_parses_well_formed_markup_as_xml_and_gives_the_html5_parsers_tree():
    markup = ('<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"/><title>T</title></head><body>'
              '<div class="a">Uno&#10;<b>dos</b> &amp; tres<br/>cuatro</div><span class="b">cinco</span></body></html>')
    base = pdf.ASSETS_DIR.as_uri() + "/"
    fast = pdf.LeanHTML(string=markup, base_url=base, url_fetcher=pdf._fetcher())
    html5 = pdf.HTML(string=markup, base_url=base, url_fetcher=pdf._fetcher())
    assert _tree(fast.etree_element) == _tree(html5.etree_element)
    assert "Uno\ndos" in "".join(fast.etree_element.itertext())


def test_markup_that_is_not_xml_falls_back_to_the_html5_parser():
    markup = '<html><body><div>Uno<br>dos &nbsp; tres<hr></div></body></html>'
    with pytest.raises(ElementTree.ParseError):
        ElementTree.fromstring(markup)  # noqa: S314  (our own literal)
    lean = pdf.LeanHTML(string=markup, base_url=pdf.ASSETS_DIR.as_uri() + "/", url_fetcher=pdf._fetcher())
    assert [e.tag for e in lean.etree_element.iter()][-3:] == ["div", "br", "hr"]
    assert pdf.html_to_pdf(markup, lean=True).page_count == 1


@pytest.mark.django_db
def test_every_kind_of_notice_is_well_formed_xml(irr_roll, staff_user, monkeypatch):
    parsed, refused = [], []
    real = pdf.ElementTree.fromstring

    def spy(text):
        try:
            root = real(text)
        except ElementTree.ParseError as exc:
            refused.append(str(exc))
            raise
        parsed.append(root)
        return root

    monkeypatch.setattr(pdf.ElementTree, "fromstring", spy)
    receivables = list(Receivable.objects.filter(source_type=source_type(irr_roll))
                       .order_by("account__parcel__cadastre")[:2])   # the first parcel is co-owned
    first = services.notice_issue(receivable=receivables[0], actor=staff_user)
    services.notice_issue(receivable=receivables[1], actor=staff_user)
    corrected = services.notice_issue(receivable=receivables[0], actor=staff_user, replaces=first,
                                      reason="Dirección postal corregida")
    english = services.notice_issue_in_language(notice=corrected, language="en", actor=staff_user)
    assert refused == [] and len(parsed) == 4
    text = pdf_text(english.document)
    assert "Pay to" in text or "Páguese a" in text   # the stub's lines, broken by newlines, all there
    assert receivables[0].payment_reference in text


def test_installments_are_numbered_only_for_benefit_charges():
    """SID-1 / TID-2 installments follow the resolution or ordinance ("Plazo 1 de 2"); other lines
    without a period (franchise tariffs, meter bills) keep the fiscal semester of their due date."""
    from datetime import date

    from assessments.notices.context import _line_label

    due = date(2026, 7, 1)
    assert _line_label({"seq": 1, "rule": "SID-1"}, due, 2)[0] == "Plazo 1 de 2"
    assert _line_label({"seq": 2, "rule": "TID-2"}, date(2027, 1, 1), 2)[0] == "Plazo 2 de 2"
    assert _line_label({"seq": 1, "rule": "FRA-3"}, due, 2)[0] == "1.er semestre, AF 2027 (jul.–dic.)"
