"""API plumbing: errors always come back as JSON, never as a server error page."""
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import parsers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)


# --- parsers: a NUL character in a body is a 400 naming the field ----------------------------------
# PostgreSQL cannot hold NUL in text: a lookup by code or name with one ("district": "\u0000") would end
# in a DataError (a 500). CharField refuses it already; this refuses it for every field, once, at parsing.

def _nul_path(data, path: str = "") -> str | None:
    """The path of the first key or string value with a NUL character, or None."""
    if isinstance(data, str):
        return (path or "non_field_errors") if "\x00" in data else None
    if hasattr(data, "lists"):  # a QueryDict: every value of every key
        items = data.lists()
    elif isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return None
    for key, value in items:
        if isinstance(key, str) and "\x00" in key:
            return path or "non_field_errors"
        found = _nul_path(value, f"{path}.{key}" if path else str(key))
        if found:
            return found
    return None


def _refuse_nul(data):
    from django.utils.translation import gettext as _
    from rest_framework.exceptions import ValidationError

    where = _nul_path(data)
    if where:
        raise ValidationError({where: [_("Contiene un carácter nulo (0x00), que no se admite.")]})
    return data


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        return _refuse_nul(super().parse(stream, media_type, parser_context))


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        return _refuse_nul(super().parse(stream, media_type, parser_context))


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        _refuse_nul(parsed.data)
        return parsed
