"""Spanish first: the language comes from the ES/EN switch's cookie, never from the browser."""
from django.conf import settings
from django.utils import translation


class DefaultSpanishLocaleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        lang = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) or settings.LANGUAGE_CODE
        if lang not in dict(settings.LANGUAGES):
            lang = settings.LANGUAGE_CODE
        translation.activate(lang)
        request.LANGUAGE_CODE = lang
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", lang)
        return response


class RejectNullCharactersMiddleware:
    """A query string or path with a NUL character (?q=%00, /calendario/ical/%00.ics) is refused with a
    400 naming the parameter: PostgreSQL cannot hold NUL in text, so a search, a filter or a token
    lookup would otherwise end in a server error. Forms already refuse NUL in the fields they clean;
    this covers what views read directly."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path_info:
            from django.http import HttpResponseBadRequest
            from django.utils.translation import gettext as _

            return HttpResponseBadRequest(_("La dirección contiene un carácter nulo (0x00), que no se admite."),
                                          content_type="text/plain; charset=utf-8")
        for key, values in request.GET.lists():
            if "\x00" in key or any("\x00" in v for v in values):
                from django.http import HttpResponseBadRequest, JsonResponse
                from django.utils.translation import gettext as _

                name = key.replace("\x00", "")
                message = _("El parámetro «%(name)s» contiene un carácter nulo (0x00), que no se admite.") % {
                    "name": name}
                if request.path.startswith("/api/"):
                    return JsonResponse({name or "query": [message]}, status=400)
                return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
