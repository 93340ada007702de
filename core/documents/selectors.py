"""Reads with rules for issued documents: who may download one, and the public verification lookup."""
from __future__ import annotations

from django.http import Http404

from core import roles
from core.documents.codes import normalize_code
from core.models import Document


def access_document(user, pk) -> Document:
    """The document `pk` if `user` may download it, else Http404 (never say it exists).

    Office staff may download any document; anyone else only a document addressed to their
    own party (districts.Party.user), i.e. one whose owner_party_ids include it.
    """
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise Http404("document not found")
    documents = Document.objects.all()
    if not roles.is_staff_member(user):
        party = getattr(user, "party", None)  # reverse one-to-one of districts.Party.user
        if party is None:
            raise Http404("document not found")
        documents = documents.filter(owners__party_id=party.pk)
    try:
        return documents.distinct().get(pk=pk)
    except (Document.DoesNotExist, ValueError, TypeError):
        raise Http404("document not found")


def document_by_code(typed_code: str) -> Document | None:
    """The document a verification code (as typed) belongs to, or None."""
    code = normalize_code(typed_code)
    if code is None:
        return None
    return Document.objects.filter(verification_code=code).first()
