"""Owners' API under /api/v1/portal/: my notices, my parcels, my accounts, my payments.

Only owners (role `owner`, not office staff, linked to a party) get in; every object comes
through the portal's `access_*` selectors, so another owner's record is a 404 like a missing one.
Downloads are logged like the pages' ones.
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from assessments.portal import selectors, services
from assessments.portal.views import notice_download_response, receipt_pdf_response
from core import roles
from districts.models import Party

MONEY = {"max_digits": 14, "decimal_places": 2}


class IsPortalOwner(BasePermission):
    """An owner's own records only: the role, an active account and a linked party."""

    message = "Solo los dueños con cuenta en el portal usan este recurso."

    def has_permission(self, request, view) -> bool:
        user = request.user
        return bool(roles.is_owner(user) and Party.objects.filter(user=user).exists())


class PortalApi(APIView):
    permission_classes = [IsPortalOwner]


class InstallmentOut(serializers.Serializer):
    reference = serializers.CharField()
    description = serializers.CharField()
    seq = serializers.IntegerField()
    due_date = serializers.DateField()
    amount = serializers.DecimalField(**MONEY)
    principal_open = serializers.DecimalField(**MONEY)
    surcharge_open = serializers.DecimalField(**MONEY)
    accrued_surcharge = serializers.DecimalField(**MONEY)
    total_due = serializers.DecimalField(**MONEY)


class NoticeOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.CharField(source="display_number")
    issued_on = serializers.DateField()
    status = serializers.CharField()
    program = serializers.CharField()
    description = serializers.CharField(source="receivable.description")
    payment_reference = serializers.CharField(source="receivable.payment_reference")
    amount = serializers.DecimalField(source="receivable.amount", **MONEY)
    cadastre = serializers.CharField(source="receivable.account.parcel.cadastre", default=None)
    replaces = serializers.CharField(source="replaces.display_number", default=None)
    pdf_url = serializers.SerializerMethodField()

    def get_pdf_url(self, notice) -> str:
        return f"/api/v1/portal/notices/{notice.pk}/pdf/"


class ParcelOut(serializers.Serializer):
    id = serializers.IntegerField()
    cadastre = serializers.CharField()
    municipality = serializers.CharField(source="municipality.name")
    location = serializers.CharField()
    area_cuerdas = serializers.DecimalField(max_digits=16, decimal_places=4)
    area_acres = serializers.DecimalField(max_digits=16, decimal_places=4)
    account_id = serializers.IntegerField(source="account.pk", default=None)


class AccountOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.CharField()
    cadastre = serializers.CharField(source="parcel.cadastre", default=None)
    balance = serializers.DecimalField(**MONEY)


class PaymentOut(serializers.Serializer):
    id = serializers.IntegerField()
    receipt_number = serializers.CharField()
    paid_on = serializers.DateField()
    amount = serializers.DecimalField(**MONEY)
    method = serializers.CharField()
    status = serializers.CharField()
    account = serializers.CharField(source="account.number")
    receipt_url = serializers.SerializerMethodField()

    def get_receipt_url(self, payment) -> str | None:
        available = payment.status == payment.Status.POSTED or selectors.payment_receipt(payment)
        return f"/api/v1/portal/payments/{payment.pk}/receipt/" if available else None


@extend_schema(responses=NoticeOut(many=True), tags=["portal"])
class NoticeListApi(PortalApi):
    def get(self, request):
        return Response(NoticeOut(selectors.owner_notices(request.user), many=True).data)


@extend_schema(responses=NoticeOut, tags=["portal"])
class NoticeDetailApi(PortalApi):
    def get(self, request, pk):
        return Response(NoticeOut(selectors.access_notice(request.user, pk)).data)


@extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY}, tags=["portal"])
class NoticePdfApi(PortalApi):
    """The stored PDF as it is, by the pages' one-query path (IsPortalOwner has checked the role).

    Unlike the page it stays in the request transaction: DRF marks that transaction for rollback
    on any error it handles (a 404 too), which needs one to exist."""

    def get(self, request, pk):
        return notice_download_response(request, pk)


@extend_schema(responses=ParcelOut(many=True), tags=["portal"])
class ParcelListApi(PortalApi):
    def get(self, request):
        return Response(ParcelOut(selectors.owner_parcels(request.user).select_related("account"), many=True).data)


class ParcelDetailApi(PortalApi):
    @extend_schema_serializer(component_name="ParcelDetailOut")
    class Output(ParcelOut):
        open_installments = InstallmentOut(many=True)

    @extend_schema(responses=Output, tags=["portal"])
    def get(self, request, pk):
        parcel = selectors.access_parcel(request.user, pk)
        account = getattr(parcel, "account", None)
        parcel.open_installments = selectors.open_charges(account, as_of=timezone.localdate()) if account else []
        return Response(self.Output(parcel).data)


@extend_schema(responses=AccountOut(many=True), tags=["portal"])
class AccountListApi(PortalApi):
    def get(self, request):
        return Response(AccountOut(selectors.owner_accounts(request.user), many=True).data)


class AccountDetailApi(PortalApi):
    @extend_schema_serializer(component_name="AccountDetailOut")
    class Output(serializers.Serializer):
        account = AccountOut()
        as_of = serializers.DateField()
        since = serializers.DateField(allow_null=True)
        opening_balance = serializers.DecimalField(**MONEY)
        balance = serializers.DecimalField(**MONEY)
        accrued_surcharge = serializers.DecimalField(**MONEY)
        payoff = serializers.DecimalField(**MONEY)
        open_installments = InstallmentOut(many=True)

    @extend_schema(responses=Output, tags=["portal"])
    def get(self, request, pk):
        today = timezone.localdate()
        result = selectors.owner_statement(request.user, pk, as_of=today)
        st = result.statement
        return Response(self.Output({
            "account": st.account, "as_of": today, "since": result.since, "opening_balance": result.opening,
            "balance": st.balance, "accrued_surcharge": st.accrued_surcharge, "payoff": st.payoff,
            "open_installments": st.open_installments}).data)


@extend_schema(responses=PaymentOut(many=True), tags=["portal"])
class PaymentListApi(PortalApi):
    def get(self, request):
        return Response(PaymentOut(selectors.owner_payments(request.user), many=True).data)


@extend_schema(responses=PaymentOut, tags=["portal"])
class PaymentDetailApi(PortalApi):
    def get(self, request, pk):
        return Response(PaymentOut(selectors.access_payment(request.user, pk)).data)


@extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY}, tags=["portal"])
class ReceiptPdfApi(PortalApi):
    def get(self, request, pk):
        return receipt_pdf_response(request, selectors.access_payment(request.user, pk))


class NoticeLanguageApi(PortalApi):
    """The language of the owner's next notices (Spanish unless they ask for English)."""

    @extend_schema_serializer(component_name="NoticeLanguage")
    class Body(serializers.Serializer):
        language = serializers.ChoiceField(choices=settings.LANGUAGES)

    @extend_schema(responses=Body, tags=["portal"])
    def get(self, request):
        return Response({"language": selectors.access_party(request.user).notice_language})

    @extend_schema(request=Body, responses=Body, tags=["portal"])
    def put(self, request):
        body = self.Body(data=request.data)
        body.is_valid(raise_exception=True)
        with transaction.atomic():
            party = services.owner_notice_language_set(user=request.user, language=body.validated_data["language"])
        return Response({"language": party.notice_language})
