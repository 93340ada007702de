"""Read-only register endpoints: list with filters and pagination, and detail."""
from django_filters import rest_framework as filters
from rest_framework import viewsets

from core.filters import FilterSet
from districts import selectors
from districts.api import serializers as s
from districts.models import District, Membership, Office, Parcel, WaterDelivery


class ParcelFilter(FilterSet):
    q = filters.CharFilter(method="search", label="Texto (catastro, dirección o dueño; sin acentos)")
    district = filters.CharFilter(field_name="memberships__district__code")
    municipality = filters.CharFilter(field_name="municipality__name", lookup_expr="iexact")

    class Meta:
        model = Parcel
        fields = ["use_class", "area_unit", "is_public_land"]

    def search(self, queryset, name, value):
        return queryset.filter(pk__in=selectors.parcel_search(value).values("pk"))


class PartyFilter(FilterSet):
    q = filters.CharFilter(method="search", label="Nombre, correo, teléfono o dirección (sin acentos)")
    kind = filters.CharFilter()

    def search(self, queryset, name, value):
        return queryset.filter(pk__in=selectors.party_search(value).values("pk"))


class ParcelViewSet(viewsets.ReadOnlyModelViewSet):
    filterset_class = ParcelFilter
    ordering_fields = ["cadastre", "area_value", "assessed_value"]

    def get_queryset(self):
        return Parcel.objects.select_related("municipality").prefetch_related("ownerships__party").order_by("cadastre")

    def get_serializer_class(self):
        return s.ParcelDetailSerializer if self.action == "retrieve" else s.ParcelSerializer


class PartyViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.PartySerializer
    filterset_class = PartyFilter

    def get_queryset(self):
        return selectors.party_search("").order_by("id")


class OfficeViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.OfficeSerializer
    queryset = Office.objects.select_related("address_municipality").order_by("name")
    filterset_fields = ["kind"]


class DistrictViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.DistrictSerializer
    queryset = District.objects.prefetch_related("municipalities").order_by("code")
    filterset_fields = ["kind", "code"]


class MembershipViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.MembershipSerializer
    queryset = Membership.objects.select_related("district", "parcel").order_by("id")
    filterset_fields = {"district__code": ["exact"], "status": ["exact"], "free_period_end": ["lte", "gte", "isnull"]}


class WaterDeliveryViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.WaterDeliverySerializer
    queryset = WaterDelivery.objects.select_related("parcel").order_by("id")
    filterset_fields = {"parcel__cadastre": ["exact"], "fiscal_year": ["exact"], "semester": ["exact"]}
