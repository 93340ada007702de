"""POST /api/v1/compute/<calculation>/ — the same JSON as `manage.py compute`."""
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from assessments.compute import CALCULATIONS, ComputeInputError, run
from core import roles
from core.parameters import DatabaseParameters
from core.permissions import HasAction


class ComputeView(APIView):
    required_action = roles.READ
    permission_classes = [HasAction]

    @extend_schema(
        summary="Run a rule engine (docs/compute.md)",
        parameters=[OpenApiParameter("calculation", str, OpenApiParameter.PATH, enum=list(CALCULATIONS))],
        request={"application/json": {"type": "object"}},
        responses={200: {"type": "object"}, 400: {"type": "object"}},
    )
    def post(self, request, calculation: str):
        try:
            result = run(calculation, request.data, params=DatabaseParameters())
        except ComputeInputError as exc:
            return Response(exc.as_json(), status=status.HTTP_400_BAD_REQUEST)
        return Response(result)
