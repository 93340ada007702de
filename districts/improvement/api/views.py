"""Improvement-district API: validate → service → serialize, one view per operation.

Reads need a staff role; each write the action of the role matrix it declares (`required_action`,
core.permissions.HasAction, the default). The formula preview changes nothing (`read`): auditors may run it
too. Refusals come back as 400 with the details: SID-1 fields, TID-2 formula position and reason, TID-5 cap figures.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core import roles
from core.permissions import HasAction
from districts.improvement import rules, selectors, services
from districts.improvement.api import serializers as s
from districts.improvement.errors import AdminCapExceeded, FormulaRefused
from districts.improvement.models import (
    SidCollectionBatch,
    SidResolution,
    TidAccountEntry,
    TidFactorFinding,
    TidOrdinance,
    TidPetition,
)
from districts.models import District, Municipality, Parcel, Party

MONEY = {"max_digits": 14, "decimal_places": 2}


def _resolutions():
    return SidResolution.objects.select_related("district").prefetch_related(
        "charges__parcel", "notice_rounds", "batches").order_by("id")


def _ordinances():
    return TidOrdinance.objects.select_related("petition__district", "association").prefetch_related(
        "notice_rounds", "account_entries", "audits").order_by("id")


def _petitions():
    return TidPetition.objects.select_related("district", "municipality").prefetch_related("findings").order_by("id")


class Sid1Input(serializers.Serializer):
    """SID-1: any exemption, exoneration or discount field in the request refuses it whole."""

    def validate(self, attrs):
        forbidden = rules.sid1_forbidden_fields(getattr(self, "initial_data", {}) or {})
        if forbidden:
            raise serializers.ValidationError(rules.SID1_MESSAGE.format(fields=", ".join(forbidden)))
        return attrs


# --- SID -------------------------------------------------------------------------------------------

class SidResolutionListCreateApi(generics.ListAPIView):
    """GET: SID resolutions (filter `district` code). POST: record one (SID-1)."""

    required_action = roles.DRAFT

    serializer_class = s.SidResolutionSerializer
    filter_backends = []

    class SidResolutionListCreateInput(Sid1Input):
        district = serializers.SlugRelatedField(slug_field="code", queryset=District.objects.filter(
            kind=District.Kind.SID))
        number = serializers.CharField(max_length=40)
        adopted_on = serializers.DateField()
        term_years = serializers.IntegerField(min_value=1, max_value=60)
        first_fiscal_year = serializers.IntegerField(min_value=1950, max_value=2200)
        due_dates = serializers.ListField(child=serializers.CharField(), allow_empty=False)
        penalty_pct = serializers.DecimalField(max_digits=13, decimal_places=10, min_value=0, max_value=100,
                                               required=False, default=0)
        penalty_grace_days = serializers.IntegerField(min_value=0, required=False, default=0)
        penalty_terms = serializers.CharField(required=False, allow_blank=True, default="")

    def get_queryset(self):
        qs = _resolutions()
        if code := self.request.query_params.get("district"):
            qs = qs.filter(district__code=code)
        return qs

    @extend_schema(request=SidResolutionListCreateInput, responses={201: s.SidResolutionDetailSerializer})
    def post(self, request):
        data = self.SidResolutionListCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        res = services.sid_resolution_create(actor=request.user, **data.validated_data)
        return Response(s.SidResolutionDetailSerializer(_resolutions().get(pk=res.pk)).data,
                        status=status.HTTP_201_CREATED)


class SidResolutionDetailApi(generics.RetrieveAPIView):
    serializer_class = s.SidResolutionDetailSerializer

    def get_queryset(self):
        return _resolutions()


class SidChargeApi(APIView):
    """SID-1: set one parcel's annual charge. Exemptions, exonerations and discounts are refused."""

    required_action = roles.DRAFT

    class SidChargeInput(Sid1Input):
        parcel = serializers.SlugRelatedField(slug_field="cadastre", queryset=Parcel.objects.all())
        annual_charge = serializers.DecimalField(min_value=0, **MONEY)

    @extend_schema(request=SidChargeInput, responses={200: s.SidChargeSerializer})
    def post(self, request, pk: int):
        res = get_object_or_404(SidResolution, pk=pk)
        data = self.SidChargeInput(data=request.data)
        data.is_valid(raise_exception=True)
        charge = services.sid_charge_set(actor=request.user, resolution=res, **data.validated_data)
        return Response(s.SidChargeSerializer(charge).data)


class SidCrimReceiptApi(APIView):
    """SID-2: CRIM received the resolution; opens the notice clock."""

    required_action = roles.DRAFT

    class SidCrimReceiptInput(serializers.Serializer):
        received_on = serializers.DateField()

    @extend_schema(request=SidCrimReceiptInput, responses={200: s.SidResolutionDetailSerializer})
    def post(self, request, pk: int):
        res = get_object_or_404(SidResolution, pk=pk)
        data = self.SidCrimReceiptInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.sid_crim_receipt_record(actor=request.user, resolution=res, **data.validated_data)
        return Response(s.SidResolutionDetailSerializer(_resolutions().get(pk=pk)).data)


class SidBatchListCreateApi(generics.ListAPIView):
    """GET: collection batches (filter `resolution`). POST: CRIM received one (SID-3)."""

    required_action = roles.DRAFT

    serializer_class = s.SidBatchSerializer
    filter_backends = []

    class SidBatchListCreateInput(serializers.Serializer):
        resolution = serializers.PrimaryKeyRelatedField(queryset=SidResolution.objects.all())
        received_on = serializers.DateField()
        collected = serializers.DecimalField(min_value=0, **MONEY)
        reference = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")

    def get_queryset(self):
        qs = SidCollectionBatch.objects.order_by("received_on", "id")
        if self.request.query_params.get("resolution", "").isdigit():
            qs = qs.filter(resolution_id=int(self.request.query_params["resolution"]))
        return qs

    @extend_schema(request=SidBatchListCreateInput, responses={201: s.SidBatchSerializer})
    def post(self, request):
        data = self.SidBatchListCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        batch = services.sid_batch_record(actor=request.user, **data.validated_data)
        return Response(s.SidBatchSerializer(batch).data, status=status.HTTP_201_CREATED)


class SidBatchDetailApi(generics.RetrieveAPIView):
    serializer_class = s.SidBatchSerializer
    queryset = SidCollectionBatch.objects.all()


class SidBatchRemitApi(APIView):
    """SID-3: CRIM remitted the batch to the Authority (late when after the 90-day due date)."""

    required_action = roles.DRAFT

    class SidBatchRemitInput(serializers.Serializer):
        remitted_on = serializers.DateField()

    @extend_schema(request=SidBatchRemitInput, responses={200: s.SidBatchSerializer})
    def post(self, request, pk: int):
        batch = get_object_or_404(SidCollectionBatch, pk=pk)
        data = self.SidBatchRemitInput(data=request.data)
        data.is_valid(raise_exception=True)
        batch = services.sid_batch_remit(actor=request.user, batch=batch, **data.validated_data)
        return Response(s.SidBatchSerializer(batch).data)


class SidRemittanceReportApi(APIView):
    """SID-3: what is due when and what is late."""

    @extend_schema(responses={200: {"type": "object"}})
    def get(self, request):
        report = selectors.sid_remittance_report()
        return Response({
            "today": report["today"].isoformat(),
            "totals": {k: str(v) for k, v in report["totals"].items()},
            "late_count": report["late_count"],
            "batches": [{**s.SidBatchSerializer(r["batch"]).data, "status": r["status"], "days_late": r["days_late"]}
                        for r in report["rows"]],
        })


# --- TID -------------------------------------------------------------------------------------------

class TidPetitionListCreateApi(generics.ListAPIView):
    """GET: TID petitions with their findings. POST: the Legislature received one (TID-1)."""

    required_action = roles.DRAFT

    serializer_class = s.TidPetitionSerializer
    filter_backends = []

    class TidPetitionListCreateInput(serializers.Serializer):
        district = serializers.SlugRelatedField(slug_field="code", queryset=District.objects.filter(
            kind=District.Kind.TID))
        municipality = serializers.SlugRelatedField(slug_field="name", queryset=Municipality.objects.all())
        petition_text = serializers.CharField()
        legislature_received_on = serializers.DateField()

    def get_queryset(self):
        return _petitions()

    @extend_schema(request=TidPetitionListCreateInput, responses={201: s.TidPetitionSerializer})
    def post(self, request):
        data = self.TidPetitionListCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        petition = services.tid_petition_create(actor=request.user, **data.validated_data)
        return Response(s.TidPetitionSerializer(_petitions().get(pk=petition.pk)).data, status=status.HTTP_201_CREATED)


class TidPetitionDetailApi(generics.RetrieveAPIView):
    serializer_class = s.TidPetitionSerializer

    def get_queryset(self):
        return _petitions()


class TidFindingApi(APIView):
    """TID-1: the Legislature's finding on factor (a)–(e)."""

    required_action = roles.DRAFT

    class TidFindingInput(serializers.Serializer):
        factor = serializers.ChoiceField(choices=TidFactorFinding.Factor.choices)
        finding = serializers.ChoiceField(choices=TidFactorFinding.Finding.choices)
        notes = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(request=TidFindingInput, responses={200: s.TidPetitionSerializer})
    def post(self, request, pk: int):
        petition = get_object_or_404(TidPetition, pk=pk)
        data = self.TidFindingInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.tid_finding_record(actor=request.user, petition=petition, **data.validated_data)
        return Response(s.TidPetitionSerializer(_petitions().get(pk=pk)).data)


class TidOrdinanceListCreateApi(generics.ListAPIView):
    """GET: ordinances. POST: the Legislature issues one (TID-2); a bad formula is refused (400)
    with its position and reason."""

    required_action = roles.DRAFT

    serializer_class = s.TidOrdinanceSerializer
    filter_backends = []

    class TidOrdinanceListCreateInput(serializers.Serializer):
        petition = serializers.PrimaryKeyRelatedField(queryset=TidPetition.objects.all())
        number = serializers.CharField(max_length=40)
        name = serializers.CharField(max_length=200)
        issued_on = serializers.DateField()
        expected_amount = serializers.DecimalField(min_value=0, **MONEY)
        term_years = serializers.IntegerField(min_value=1, max_value=60)
        first_fiscal_year = serializers.IntegerField(min_value=1950, max_value=2200)
        formula = serializers.CharField(trim_whitespace=False)
        due_dates = serializers.ListField(child=serializers.CharField(), required=False, default=list)
        association_authorized = serializers.BooleanField(required=False, default=False)

    def get_queryset(self):
        return _ordinances()

    @extend_schema(request=TidOrdinanceListCreateInput,
                   responses={201: s.TidOrdinanceDetailSerializer, 400: {"type": "object"}})
    def post(self, request):
        data = self.TidOrdinanceListCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            ordinance = services.tid_ordinance_issue(actor=request.user, **data.validated_data)
        except FormulaRefused as exc:
            return Response(exc.as_json(), status=status.HTTP_400_BAD_REQUEST)
        return Response(s.TidOrdinanceDetailSerializer(_ordinances().get(pk=ordinance.pk)).data,
                        status=status.HTTP_201_CREATED)


class TidOrdinanceDetailApi(generics.RetrieveAPIView):
    serializer_class = s.TidOrdinanceDetailSerializer

    def get_queryset(self):
        return _ordinances()


class TidOrdinancePreviewApi(APIView):
    """TID-2 preview: the formula (the ordinance's, or `formula` given) over the district's member
    parcels: each parcel's charge, the total and the difference from the expected amount. A bad
    formula gives 400 with `error.position` and `error.reason`. Changes nothing."""

    required_action = roles.READ

    permission_classes = [HasAction]

    class TidOrdinancePreviewInput(serializers.Serializer):
        formula = serializers.CharField(required=False, trim_whitespace=False)
        expected_amount = serializers.DecimalField(required=False, allow_null=True, min_value=0, **MONEY)

    @extend_schema(request=TidOrdinancePreviewInput, responses={200: {"type": "object"}, 400: {"type": "object"}})
    def post(self, request, pk: int):
        ordinance = get_object_or_404(TidOrdinance.objects.select_related("petition__district"), pk=pk)
        data = self.TidOrdinancePreviewInput(data=request.data)
        data.is_valid(raise_exception=True)
        formula = data.validated_data.get("formula", ordinance.formula)
        expected = data.validated_data.get("expected_amount", ordinance.expected_amount)
        try:
            preview = selectors.tid_formula_preview(ordinance.petition.district, formula, expected)
        except FormulaRefused as exc:
            return Response(exc.as_json(), status=status.HTTP_400_BAD_REQUEST)
        return Response({"ordinance": ordinance.pk, **preview.as_json()})


def _ordinance_action(service, input_serializer):
    """One POST operation on an ordinance: validate → service → the ordinance."""

    class Api(APIView):
        InputSerializer = input_serializer
        required_action = roles.DRAFT

        @extend_schema(request=input_serializer, responses={200: s.TidOrdinanceDetailSerializer})
        def post(self, request, pk: int):
            ordinance = get_object_or_404(TidOrdinance, pk=pk)
            data = self.InputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            service(actor=request.user, ordinance=ordinance, **data.validated_data)
            return Response(s.TidOrdinanceDetailSerializer(_ordinances().get(pk=pk)).data)

    Api.__name__ = Api.__qualname__ = f"{service.__name__.title().replace('_', '')}Api"
    Api.__doc__ = service.__doc__
    return Api


class TidMayorReceiptInput(serializers.Serializer):
    received_on = serializers.DateField()


class TidMayorDecisionInput(serializers.Serializer):
    decision = serializers.ChoiceField(choices=[TidOrdinance.Decision.APPROVED, TidOrdinance.Decision.DISAPPROVED])
    decided_on = serializers.DateField()


class TidPublicationInput(serializers.Serializer):
    newspaper = serializers.CharField(max_length=120)
    published_on = serializers.DateField()


class TidCollectorInput(serializers.Serializer):
    collector = serializers.ChoiceField(choices=TidOrdinance.Collector.choices)
    association = serializers.PrimaryKeyRelatedField(queryset=Party.objects.filter(kind=Party.Kind.ORGANIZATION),
                                                     required=False, allow_null=True, default=None)
    copy_sent_to_crim_on = serializers.DateField(required=False, allow_null=True, default=None)


class TidAssociationReceiptInput(serializers.Serializer):
    received_on = serializers.DateField()


TidMayorReceiptApi = _ordinance_action(services.tid_mayor_receipt, TidMayorReceiptInput)
TidMayorDecisionApi = _ordinance_action(services.tid_mayor_decide, TidMayorDecisionInput)
TidPublicationApi = _ordinance_action(services.tid_publication_record, TidPublicationInput)
TidCollectorApi = _ordinance_action(services.tid_collector_set, TidCollectorInput)
TidAssociationReceiptApi = _ordinance_action(services.tid_association_receipt, TidAssociationReceiptInput)


class TidAccountEntryApi(APIView):
    """TID-5: add a deposit or an expense to the association's account. An administrative expense
    above the cumulative 5 % cap is refused (400) with the figures."""

    required_action = roles.ADJUST

    class TidAccountEntryInput(serializers.Serializer):
        kind = serializers.ChoiceField(choices=TidAccountEntry.Kind.choices)
        entry_date = serializers.DateField()
        amount = serializers.DecimalField(min_value=0, **MONEY)
        purpose = serializers.CharField(max_length=240)
        admin_expense = serializers.BooleanField(required=False, default=False)

    @extend_schema(request=TidAccountEntryInput, responses={201: s.TidAccountEntrySerializer, 400: {"type": "object"}})
    def post(self, request, pk: int):
        ordinance = get_object_or_404(TidOrdinance, pk=pk)
        data = self.TidAccountEntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            entry = services.tid_account_entry_add(actor=request.user, ordinance=ordinance, **data.validated_data)
        except AdminCapExceeded as exc:
            return Response({"error": {"field": "amount", "message": exc.text, "rule": "TID-5", **exc.figures()}},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response(s.TidAccountEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class ImprovementChargesApi(APIView):
    """The charges the billing step would impose on a SID or TID district in a fiscal year
    (`district` code, `fiscal_year`): each parcel's amount, due dates and breakdown."""

    @extend_schema(responses={200: {"type": "object"}}, parameters=[
        OpenApiParameter("district", str, required=True, description="SID or TID district code"),
        OpenApiParameter("fiscal_year", int, required=True)])
    def get(self, request):
        # A query names its district: an unknown code is bad input (400 naming it), not a missing page.
        district = District.objects.filter(code=request.query_params.get("district", "")).first()
        if district is None:
            return Response({"district": [_("No hay un distrito con ese código.")]},
                            status=status.HTTP_400_BAD_REQUEST)
        try:
            year = int(request.query_params.get("fiscal_year", ""))
        except ValueError:
            return Response({"fiscal_year": ["Indique el año fiscal."]}, status=status.HTTP_400_BAD_REQUEST)
        try:
            rows = selectors.improvement_charges_for_year(district, year)
        except DjangoValidationError as exc:
            return Response({"non_field_errors": exc.messages}, status=status.HTTP_400_BAD_REQUEST)
        return Response({"district": district.code, "fiscal_year": year, "charges": [
            {"parcel": parcel_id, "amount": str(amount), "due_dates": [d.isoformat() for d in dues],
             "breakdown": breakdown} for parcel_id, amount, dues, breakdown in rows]})
