"""Puerto Rico conventions for pages in Spanish: $1,234.56 (dot for cents, comma for thousands), 06/12/2026.

Django's own `es` formats are Spain's (1.234,56); in Puerto Rico the amounts on bills, checks and
the bank's files are written 1,234.56, so both languages share these (config/formats/en re-exports them).
"""
DATE_FORMAT = "d/m/Y"
SHORT_DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "d/m/Y H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
MONTH_DAY_FORMAT = "j \\d\\e F"
YEAR_MONTH_FORMAT = "F \\d\\e Y"
FIRST_DAY_OF_WEEK = 0  # Sunday, as on Puerto Rico's calendars
# dd/mm/yyyy is what a person types; ISO yyyy-mm-dd stays accepted for scripts and old bookmarks.
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%Y-%m-%d"]
DATETIME_INPUT_FORMATS = ["%d/%m/%Y %H:%M:%S", "%d/%m/%Y %H:%M", "%d/%m/%Y", "%Y-%m-%d %H:%M:%S",
                          "%Y-%m-%d %H:%M", "%Y-%m-%d"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
