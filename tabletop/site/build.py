"""Write the rules website from the same packs the bot answers from: the games, each pack's
contents, one page per section with every rule at its own anchor (79.html#r79-1), related
topics as links (a topic outside the document marked as the bot marks it), the section's names
in every language, and a search page that works offline in the browser.

The rules text is the packs' text, exactly: templates (Jinja2, autoescaped) only arrange it.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import shutil
from pathlib import Path

import jinja2

from tabletop.core.i18n import CATALOGUE_DIR, lang, t
from tabletop.core.text import ROMAN
from tabletop.rules import fusion, lexical, links, ruledb, search, tokenizing
from tabletop.rules.compendium import Compendium
from tabletop.rules.packs import in_language
from tabletop.site import meaning, search_index

HERE = Path(__file__).parent


def _environment(locale: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals.update(
        t=lambda key, **values: t(key, locale, **values),
        anchor=links.anchor,
        roman=lambda n: ROMAN[n] if n < len(ROMAN) else str(n + 1),
        lang=lang(locale),
        in_language=lambda texts: texts.get(lang(locale)) or in_language(texts),
    )
    return env


STAMP = ".built"  # in the site's folder: what it was built from


def stamp(compendium: Compendium, locale: str) -> str:
    """What a built site depends on: the rules database's content, the site's own code,
    templates and static files, the engine and model the page reads meaning with, and the
    language of its words."""
    h = hashlib.sha256(f"{ruledb.stored_hash(compendium.db_path)}\0{locale}".encode())
    h.update(meaning.identity())
    for module in (fusion, lexical, search, tokenizing):  # the index carries their numbers and word lists
        h.update(Path(str(module.__file__)).read_bytes())
    for catalogue in sorted(CATALOGUE_DIR.glob("*.json")):  # the pages' words
        h.update(catalogue.read_bytes())
    for path in sorted(p for p in HERE.rglob("*") if p.is_file() and p.suffix in (".py", ".html", ".css", ".js")):
        h.update(path.read_bytes())
    return h.hexdigest()


def up_to_date(compendium: Compendium, out: Path, locale: str = "ko") -> bool:
    """Whether `out` holds this very site already (a read-only image serves it as built)."""
    try:
        return (Path(out) / STAMP).read_text().strip() == stamp(compendium, locale)
    except OSError:
        return False


def build(compendium: Compendium, out: Path, locale: str = "ko") -> dict:
    """Write the site into `out` (created or refreshed); returns what was written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    env = _environment(locale)
    packs = list(compendium.packs.values())
    pages = 0

    def write(path: Path, template: str, **values) -> None:
        nonlocal pages
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(env.get_template(template).render(**values), encoding="utf-8")
        pages += 1

    for name in ("site.css", "search.js", "meaning.js", "meaning-worker.js"):
        shutil.copyfile(HERE / "static" / name, out / name)
    reads_meaning = meaning.copy_engine(out)
    (out / "kanji-readings.js").write_text(search_index.readings_script(), encoding="utf-8")
    write(out / "index.html", "index.html", packs=packs, pack=None, root="")
    for pack in packs:
        folder = out / pack.id
        write(folder / "index.html", "pack.html", pack=pack, root="../")
        write(folder / "search.html", "search.html", pack=pack, root="../", model_mb=meaning.image_megabytes())
        index = search_index.build(compendium, pack.id)
        vectors = meaning.pack_vectors(compendium, pack.id) if reads_meaning else None
        if vectors is None:  # no model, or a database without the pack's vectors: the words alone
            index["meaning"] = None
            (folder / meaning.VECTORS).unlink(missing_ok=True)
        else:
            (folder / meaning.VECTORS).write_bytes(vectors)
        (folder / "search-index.js").write_text(search_index.script(index), encoding="utf-8")
        sections = list(pack.sections)
        for i, section in enumerate(sections):
            write(
                out / links.page(pack.id, section.id),
                "section.html",
                pack=pack,
                section=section,
                related=compendium.related(section),
                previous=sections[i - 1] if i else None,
                following=sections[i + 1] if i + 1 < len(sections) else None,
                root="../",
            )
    (out / STAMP).write_text(stamp(compendium, locale) + "\n")
    return {"path": str(out), "packs": len(packs), "pages": pages}


def serve(out: Path, port: int = 8000, host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    """A local preview of the built site (not for production: publish the folder as static
    files). Returns the server; the caller runs serve_forever()."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    return http.server.ThreadingHTTPServer((host, port), handler)
