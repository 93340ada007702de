import time
import pytest
from django.template.loader import render_to_string
from django.utils import timezone
from assessments.models import Receivable
from assessments.notices import services
from assessments.notices.context import RenderCache, notice_context
from core.documents import pdf as engine
from core.documents.qr import qr_svg_data_uri
from core.documents.services import DocumentHeader

pytestmark = pytest.mark.django_db

def test_prof(irr_roll, laj_roll, staff_user):
    ids = list(Receivable.objects.values_list("pk", flat=True))
    ns = services.notices_number(receivable_ids=ids, actor=staff_user)
    cache = RenderCache()
    n = ns[1]
    t = time.time()
    ctx = notice_context(n, cache=cache, portal_url="https://x/portal/activar/")
    print("context", time.time() - t)
    header = DocumentHeader(code="ABCD-EFGH-2345", kind="NOTICE", kind_label="Aviso de cobro", title="Aviso", issued_at=timezone.now(),
        verify_url="https://cargos.pr.gov/verificar/ABCD-EFGH-2345/", verify_base_url="https://cargos.pr.gov/verificar/",
        qr_data_uri=qr_svg_data_uri("https://cargos.pr.gov/verificar/ABCD-EFGH-2345/"), office_name="x", letterhead_src="", language="es")
    t = time.time()
    html = render_to_string("notices/notice.html", {**ctx, "doc": header})
    print("template", time.time() - t)
    open("/tmp/notice.html", "w").write(html)
    for variant, h in (("full", html),):
        engine.html_to_pdf(h)
        t = time.time()
        for _ in range(5):
            r = engine.html_to_pdf(h)
        print(variant, (time.time() - t) / 5, r.page_count)
    t = time.time()
    for _ in range(5):
        r = engine.html_to_pdf(render_to_string("documents/letter.html", {"office": ctx["office"], "doc": header, "paragraphs": ["x"*300]*3}))
    print("letter", (time.time() - t) / 5, r.page_count)
