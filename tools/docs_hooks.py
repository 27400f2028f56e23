"""MkDocs hook: the docs site's reference tables (commands, variables) are made from the code
at build time, in the page's language, so they cannot drift from it (tabletop/cli/reference.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # mkdocs loads hooks by path

from tabletop.cli import reference  # noqa: E402


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Fill each generated-table marker in the page's own language (its folder: ko/, en/, ja/)."""
    locale = Path(page.file.src_uri).parts[0]
    return reference.fill(markdown, locale if locale in ("ko", "en", "ja") else "ko")
