"""Reference data: Puerto Rico's 78 municipalities, and the postal-address validation rules."""
import re

MUNICIPALITIES = (
    "Adjuntas", "Aguada", "Aguadilla", "Aguas Buenas", "Aibonito", "Añasco", "Arecibo", "Arroyo",
    "Barceloneta", "Barranquitas", "Bayamón", "Cabo Rojo", "Caguas", "Camuy", "Canóvanas", "Carolina",
    "Cataño", "Cayey", "Ceiba", "Ciales", "Cidra", "Coamo", "Comerío", "Corozal", "Culebra", "Dorado",
    "Fajardo", "Florida", "Guánica", "Guayama", "Guayanilla", "Guaynabo", "Gurabo", "Hatillo",
    "Hormigueros", "Humacao", "Isabela", "Jayuya", "Juana Díaz", "Juncos", "Lajas", "Lares",
    "Las Marías", "Las Piedras", "Loíza", "Luquillo", "Manatí", "Maricao", "Maunabo", "Mayagüez",
    "Moca", "Morovis", "Naguabo", "Naranjito", "Orocovis", "Patillas", "Peñuelas", "Ponce",
    "Quebradillas", "Rincón", "Río Grande", "Sabana Grande", "Salinas", "San Germán", "San Juan",
    "San Lorenzo", "San Sebastián", "Santa Isabel", "Toa Alta", "Toa Baja", "Trujillo Alto", "Utuado",
    "Vega Alta", "Vega Baja", "Vieques", "Villalba", "Yabucoa", "Yauco",
)
assert len(MUNICIPALITIES) == 78

# Puerto Rico ZIP codes are 006xx, 007xx and 009xx, optionally ZIP+4.
PR_ZIP = re.compile(r"^00(6|7|9)\d{2}(-\d{4})?$")
# CRIM cadastre number: NNN-NNN-NNN-NN (catastro), e.g. 371-045-123-07.
CADASTRE = re.compile(r"^\d{3}-\d{3}-\d{3}-\d{2}(-\d{3})?$")


def normalize_cadastre(text: str) -> str:
    """A cadastre number as typed, in the register's form: "37100111134" → "371-001-111-34".

    Digits without dashes (also with spaces or dots) get the dashes of 000-000-000-00 (and the
    -000 of a horizontal property); a partial number gets the dashes up to where it stops, so it
    still works as a prefix in searches ("371001" → "371-001"). Anything else is returned trimmed.
    """
    s = (text or "").strip()
    digits = re.sub(r"[\s.\-]", "", s)
    if not digits.isdigit() or len(digits) > 14 or not re.fullmatch(r"[\d\s.\-]+", s):
        return s
    parts, start = [], 0
    for size in (3, 3, 3, 2, 3):
        if start >= len(digits):
            break
        parts.append(digits[start:start + size])
        start += size
    return "-".join(parts)
