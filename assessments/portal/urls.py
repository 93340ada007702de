from django.urls import path

from assessments.portal import views

app_name = "portal"
urlpatterns = [
    path("", views.PortalHomeView.as_view(), name="home"),
    path("parcelas/<int:pk>/", views.PortalParcelView.as_view(), name="parcel"),
]
