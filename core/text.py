"""Text helpers for search: accent- and case-insensitive matching on every database."""
import unicodedata


def fold(text: str) -> str:
    """Lower-case, strip accents and collapse spaces: 'Peña  Núñez' -> 'pena nunez'."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.lower().split())
