"""Franchise API: validate → service → serialize. One view per operation."""
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core import roles
from districts.models import Party
from franchises import rules, selectors, services
from franchises.api.serializers import ApplicationSerializer, FranchiseDetailSerializer, FranchiseSerializer
from franchises.models import Application, Franchise, HolderType


class FranchiseListApi(generics.ListAPIView):
    """Franchises with their derived tariff class. Filters: q (number or holder, accent-blind),
    tariff_class, status, source, use."""

    serializer_class = FranchiseSerializer
    filter_backends = []

    def get_queryset(self):
        p = self.request.query_params
        return selectors.franchise_search(p.get("q", ""), tariff_class=p.get("tariff_class", ""),
                                          status=p.get("status", ""), source=p.get("source", ""),
                                          use=p.get("use", "")).select_related("property_owner", "predecessor")


class FranchiseDetailApi(generics.RetrieveAPIView):
    serializer_class = FranchiseDetailSerializer
    queryset = Franchise.objects.select_related("holder", "property_owner", "property_parcel", "office",
                                                "predecessor")


def _application_queryset():
    return Application.objects.select_related("franchise", "applicant", "recipient", "resulting_franchise") \
        .prefetch_related("hearings__requested_by")


class ApplicationListCreateApi(generics.ListAPIView):
    """GET: applications (filters franchise, status — `open` for those in process — and kind).
    POST: file one (FRA-5, FRA-6, FRA-7, FRA-9)."""

    required_action = roles.DRAFT

    serializer_class = ApplicationSerializer
    filter_backends = []

    @extend_schema_serializer(component_name="FranchiseApplicationInput")
    class InputSerializer(serializers.Serializer):
        franchise = serializers.PrimaryKeyRelatedField(queryset=Franchise.objects.all())
        kind = serializers.ChoiceField(choices=Application.Kind.choices)
        received_on = serializers.DateField()
        applicant = serializers.PrimaryKeyRelatedField(queryset=Party.objects.all(), required=False, allow_null=True)
        recipient = serializers.PrimaryKeyRelatedField(queryset=Party.objects.all(), required=False, allow_null=True)
        recipient_type = serializers.ChoiceField(choices=HolderType.choices, required=False, allow_blank=True)
        reasons = serializers.CharField(required=False, allow_blank=True)
        requested_gallons = serializers.IntegerField(required=False, allow_null=True, min_value=0)
        requested_expiry_date = serializers.DateField(required=False, allow_null=True)
        requested_conditions = serializers.CharField(required=False, allow_blank=True)
        permanent_closure = serializers.BooleanField(required=False, default=False)
        documents = serializers.ListField(child=serializers.ChoiceField(choices=list(rules.DOCUMENTS)),
                                          required=False, default=list)
        fee_paid = serializers.BooleanField(required=False, default=False)
        controversy = serializers.BooleanField(required=False, default=False)
        changes_conditions = serializers.BooleanField(required=False, default=False)

    def get_queryset(self):
        p = self.request.query_params
        qs = selectors.application_list(status=p.get("status", ""), kind=p.get("kind", ""))
        if p.get("franchise", "").isdigit():
            qs = qs.filter(franchise_id=int(p["franchise"]))
        return qs.select_related("resulting_franchise").prefetch_related("hearings__requested_by")

    @extend_schema(request=InputSerializer, responses={201: ApplicationSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = dict(data.validated_data)
        d["documents"] = dict.fromkeys(d.get("documents", []), True)
        app = services.application_file(actor=request.user, **d)
        return Response(ApplicationSerializer(_application_queryset().get(pk=app.pk)).data,
                        status=status.HTTP_201_CREATED)


class ApplicationDetailApi(generics.RetrieveAPIView):
    serializer_class = ApplicationSerializer

    def get_queryset(self):
        return _application_queryset()


class ApplicationDecideApi(APIView):
    """Decide an application. For a renewal, `outstanding_debt` is required unless billing provides it."""

    required_action = roles.DECIDE

    @extend_schema_serializer(component_name="FranchiseApplicationDecisionInput")
    class InputSerializer(serializers.Serializer):
        decided_on = serializers.DateField(required=False)
        grant = serializers.BooleanField()
        determination = serializers.CharField(required=False, allow_blank=True, default="")
        outstanding_debt = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True,
                                                    min_value=0)
        new_number = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)
        notified_on = serializers.DateField(required=False, allow_null=True)
        notification_method = serializers.ChoiceField(choices=Application.NotificationMethod.choices, required=False,
                                                      allow_blank=True, default="")
        tracking_number = serializers.CharField(required=False, allow_blank=True, default="", max_length=60)

    @extend_schema(request=InputSerializer, responses={200: ApplicationSerializer})
    def post(self, request, pk: int):
        app = get_object_or_404(Application.objects.select_related("franchise"), pk=pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = dict(data.validated_data)
        d.setdefault("decided_on", timezone.localdate())
        billing = selectors.outstanding_debt(app.franchise, d["decided_on"]) \
            if app.kind == Application.Kind.RENEWAL else None
        debt = billing if billing is not None else d.pop("outstanding_debt", None)
        d.pop("outstanding_debt", None)
        source = "billing" if billing is not None else ("api" if debt is not None else "")
        app = services.application_decide(actor=request.user, application=app, outstanding_debt=debt,
                                          debt_source=source, **d)
        return Response(ApplicationSerializer(_application_queryset().get(pk=app.pk)).data)
