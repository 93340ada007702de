import shutil
import pytest
from assessments.models import Receivable
from assessments.notices import services
from tests.notices.conftest import give_owners

pytestmark = pytest.mark.django_db

def test_render(irr_roll, laj_roll, staff_user):
    import time
    for st, name in ((f"rolls.Roll:{irr_roll.pk}", "irr"), (f"rolls.Roll:{laj_roll.pk}", "laj")):
        rec = Receivable.objects.filter(source_type=st).order_by("source_id").first()
        t = time.time()
        n = services.notice_issue(receivable=rec, actor=staff_user)
        print(name, "render s", time.time() - t, n.document.page_count, n.document.size_bytes)
        shutil.copy(n.document.file.path, f"/tmp/notice-{name}.pdf")
