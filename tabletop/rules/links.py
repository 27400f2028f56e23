"""Addresses of rules on the rules website: one page per section, one anchor per rule
(`…/ti4/79.html#r79-1`). The site builder writes them and every answer links to them when
RULES_SITE_URL says where the site is published."""

from __future__ import annotations

from tabletop.core.config import setting


def anchor(rule_id: str) -> str:
    """The element id of a rule on its page: r79-1 for 79.1 (a dot would need escaping in CSS)."""
    return "r" + rule_id.replace(".", "-")


def page(pack: str, section_id: str) -> str:
    """A section's page, relative to the site's root."""
    return f"{pack}/{section_id}.html"


def site_url(pack: str, section_id: str, rule_id: str | None = None) -> str | None:
    """The address of a section (at its rule) on the published site, or None when RULES_SITE_URL
    is not set."""
    base = str(setting("rules_site_url"))
    if not base:
        return None
    return f"{base}/{page(pack, section_id)}" + (f"#{anchor(rule_id)}" if rule_id else "")
