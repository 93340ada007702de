"""Every named URL pattern of the project, for the tests that walk them all."""
from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver


def named_patterns() -> list[tuple[list[str], URLPattern, str]]:
    """(namespaces, pattern, "ns:name") for every named pattern, in URLconf order."""
    out = []

    def walk(patterns, ns):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, ns + [p.namespace] if p.namespace else ns)
            elif isinstance(p, URLPattern) and p.name:
                out.append((ns, p, ":".join(ns + [p.name])))

    walk(get_resolver().url_patterns, [])
    return out
