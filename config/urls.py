from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from assessments.api.compute import ComputeView
from core.health_views import healthz, readyz
from core.views import HomeView

api_v1 = [
    path("", include("districts.api.urls")),
    path("franchises/", include("franchises.api.urls")),
    path("franchise-billing/", include("assessments.franchise_billing.api.urls")),
    path("improvement-billing/", include("assessments.improvement_billing.api.urls")),
    path("improvement/", include("districts.improvement.api.urls")),
    path("", include("assessments.api.urls")),
    path("portal/", include("assessments.portal.api_urls")),
    path("", include("liens.api.urls")),
    path("compute/<str:calculation>/", ComputeView.as_view(), name="compute"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
]

urlpatterns = [
    # For the load balancer: public, no details, exempt from the HTTPS redirect (docs/operations/observe.md).
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("", HomeView.as_view(), name="home"),
    path("cuentas/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("registro/importar/", include("districts.imports.urls")),
    path("registro/", include("districts.urls")),
    path("", include("core.urls")),  # work queue, document downloads, public /verificar/
    path("franquicias/", include("franchises.urls")),
    path("facturacion-franquicias/", include("assessments.franchise_billing.urls")),
    path("facturacion-mejoramiento/", include("assessments.improvement_billing.urls")),
    path("portal/", include("assessments.portal.urls")),
    path("simulacion/", include("assessments.whatif.urls")),
    path("padrones/", include("assessments.rolls.urls")),
    path("avisos/", include("assessments.notices.urls")),
    path("cobros/", include("assessments.urls")),
    path("distritos-mejoramiento/", include("districts.improvement.urls")),
    path("gravamenes/", include("liens.urls")),
    path("informes/", include("assessments.reports.urls")),
    path("api/v1/", include((api_v1, "api"))),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

# Under /api/ a path no route matches answers JSON, as the API's own 404s (core/api_schema.py).
handler404 = "core.api_schema.api_not_found"
