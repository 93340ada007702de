"""Owner-facing reads. Every query starts from the signed-in owner's party, so nothing else leaks."""
from django.http import Http404

from districts.models import Parcel, Party
from districts.selectors import current_ownerships


def access_party(user) -> Party:
    """The party linked to an owner's account, or 404 (an account without a party sees nothing)."""
    party = Party.objects.filter(user=user).first()
    if party is None:
        raise Http404
    return party


def owner_parcels(user):
    party = access_party(user)
    ids = current_ownerships().filter(party=party).values("parcel_id")
    return Parcel.objects.filter(pk__in=ids).select_related("municipality").prefetch_related(
        "memberships__district").order_by("cadastre")


def access_parcel(user, pk: int) -> Parcel:
    """A parcel the owner currently co-owns, else 404 — never 403, which would confirm it exists."""
    try:
        return owner_parcels(user).get(pk=pk)
    except Parcel.DoesNotExist as exc:
        raise Http404 from exc
