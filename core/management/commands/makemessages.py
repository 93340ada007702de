"""`makemessages` that also extracts the project's own names for gettext (`_t`, `L`, …).

xgettext only extracts calls to the keywords it is given; Django passes `_`, `gettext`,
`gettext_lazy`, `ngettext`, `pgettext`… but not an alias such as `from django.utils.translation
import gettext as _t` (used where `_` is taken) or `L = gettext_lazy`. Strings marked through an
alias would silently stay untranslated. This command finds every alias in the tree it scans and
hands each to xgettext with the argument positions of the function it stands for.
"""
from __future__ import annotations

import ast
import os
from pathlib import Path

from django.core.management.commands import makemessages

# The translation functions and the xgettext argument spec each takes (singular, plural, context).
KEYWORD_SPECS = {
    "gettext": "", "gettext_lazy": "", "gettext_noop": "",
    "ngettext": ":1,2", "ngettext_lazy": ":1,2",
    "pgettext": ":1c,2", "pgettext_lazy": ":1c,2",
    "npgettext": ":1c,2,3", "npgettext_lazy": ":1c,2,3",
}
# Names xgettext (or Django's command) already passes; they need no extra --keyword.
KNOWN = {"_", "N_", *KEYWORD_SPECS, "ugettext", "ugettext_lazy", "ungettext", "ungettext_lazy"}
SKIP_DIRS = {".venv", "venv", "node_modules", "static", "staticfiles", "media", "locale", "__pycache__"}


def _aliases_in(source: str) -> dict[str, str]:
    """{alias: xgettext spec} for `import gettext as X` and `X = gettext_lazy` in one module."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            for alias in node.names:
                if alias.asname and alias.name in KEYWORD_SPECS:
                    found[alias.asname] = KEYWORD_SPECS[alias.name]
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
              and node.value.id in KEYWORD_SPECS):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = KEYWORD_SPECS[node.value.id]
    return found


def gettext_aliases(root: str | os.PathLike = ".") -> dict[str, str]:
    """Every alias of a translation function in the Python files under `root` (not in KNOWN)."""
    found: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")]
        for name in filenames:
            if name.endswith(".py"):
                found.update(_aliases_in(Path(dirpath, name).read_text(encoding="utf-8", errors="replace")))
    return {alias: spec for alias, spec in sorted(found.items()) if alias not in KNOWN}


class Command(makemessages.Command):
    help = makemessages.Command.help + " Also extracts the project's aliases of gettext (_t, L, …)."

    def handle(self, *args, **options):
        aliases = gettext_aliases(".")
        self.xgettext_options = [*makemessages.Command.xgettext_options,
                                 *(f"--keyword={alias}{spec}" for alias, spec in aliases.items())]
        if options.get("verbosity", 1) > 1 and aliases:
            self.stdout.write(f"gettext aliases: {', '.join(aliases)}")
        return super().handle(*args, **options)
