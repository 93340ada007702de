from django.urls import path

from districts import views

app_name = "districts"

urlpatterns = [
    path("parcelas/", views.ParcelListView.as_view(), name="parcel_list"),
    path("parcelas/nueva/", views.ParcelFormView.as_view(), name="parcel_create"),
    path("parcelas/<int:pk>/", views.ParcelDetailView.as_view(), name="parcel_detail"),
    path("parcelas/<int:pk>/editar/", views.ParcelFormView.as_view(), name="parcel_edit"),
    path("personas/", views.PartyListView.as_view(), name="party_list"),
    path("personas/nueva/", views.PartyFormView.as_view(), name="party_create"),
    path("personas/<int:pk>/", views.PartyDetailView.as_view(), name="party_detail"),
    path("personas/<int:pk>/editar/", views.PartyFormView.as_view(), name="party_edit"),
    path("titularidades/nueva/", views.OwnershipFormView.as_view(), name="ownership_create"),
    path("titularidades/<int:pk>/editar/", views.OwnershipFormView.as_view(), name="ownership_edit"),
    path("distritos/", views.DistrictListView.as_view(), name="district_list"),
    path("distritos/nuevo/", views.DistrictFormView.as_view(), name="district_create"),
    path("distritos/<slug:code>/", views.DistrictDetailView.as_view(), name="district_detail"),
    path("distritos/<int:pk>/editar/", views.DistrictFormView.as_view(), name="district_edit"),
    path("inclusiones/nueva/", views.MembershipFormView.as_view(), name="membership_create"),
    path("inclusiones/<int:pk>/editar/", views.MembershipFormView.as_view(), name="membership_edit"),
    path("agua/nueva/", views.WaterDeliveryFormView.as_view(), name="water_create"),
    path("agua/<int:pk>/editar/", views.WaterDeliveryFormView.as_view(), name="water_edit"),
    path("oficinas/", views.OfficeListView.as_view(), name="office_list"),
    path("oficinas/nueva/", views.OfficeFormView.as_view(), name="office_create"),
    path("oficinas/<int:pk>/editar/", views.OfficeFormView.as_view(), name="office_edit"),
]
