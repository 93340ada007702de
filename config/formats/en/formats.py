"""Pages in English follow the same Puerto Rico conventions as in Spanish (config/formats/es)."""
from config.formats.es.formats import *  # noqa: F401,F403

MONTH_DAY_FORMAT = "F j"
YEAR_MONTH_FORMAT = "F Y"
