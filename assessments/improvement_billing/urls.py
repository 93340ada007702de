"""Staff pages of improvement billing, under /facturacion-mejoramiento/."""
from django.urls import path

from assessments.improvement_billing import views

app_name = "improvement_billing"

urlpatterns = [
    path("", views.DistrictListView.as_view(), name="index"),
    path("distrito/<slug:code>/", views.DistrictRunsView.as_view(), name="district"),
    path("corrida/<int:pk>/", views.RunDetailView.as_view(), name="run"),
]
