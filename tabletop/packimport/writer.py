"""`bot.py pack import`: a document into rules/<id>/, checked before anything is written.

The pack is written into a hidden folder beside the others, loaded with the packs' own
validator and compared character by character with the document; only then is it moved into
place, so a failed import leaves the rules folder as it was.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import yaml

from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.packimport import outline, reader
from tabletop.packimport.fidelity import first_difference, pack_lines, squash
from tabletop.packimport.sections import Draft, Note, cut
from tabletop.packimport.shape import Cut
from tabletop.rules import cards
from tabletop.rules.packs import LANGUAGES, PACK_ID_RE, PackError, load_pack

# A printed rule number's trailing dot (62.13.) is its punctuation, not text: the pack writes the
# number as an id (62.13), as the shipped TI4 pack does with the same slips.
_NUMBER_DOT = re.compile(r"^(\s*\d{1,3}\.\d{1,3})\.(?=\s)")
MAX_ID = 40  # a pack id is typed in /settings game: and shown in lists; 40 keeps it readable
NAME_MAX = 100  # the game's name: a menu's choice shows at most 100 characters


@dataclass(frozen=True)
class Imported:
    pack_id: str
    folder: Path
    language: str
    numbering: str
    sections: list[dict]
    notes: list[Note]
    written: bool
    replaces: bool  # a pack with this id was there (--replace)
    cut: Cut | None = None  # where sections start, chosen from the document's shape
    runner_up: Cut | None = None  # the cut that came second (--level picks it)


def guess_language(lines: list[reader.Line]) -> str:
    """ko when Hangul outnumbers kana, ja when kana appear, en otherwise."""
    counts = {"ko": 0, "ja": 0, "en": 0}
    for line in lines:
        for c in line.text:
            name = unicodedata.name(c, "")
            if name.startswith("HANGUL"):
                counts["ko"] += 1
            elif name.startswith(("HIRAGANA", "KATAKANA")):
                counts["ja"] += 1
            elif c.isascii() and c.isalpha():
                counts["en"] += 1
    if counts["ko"] or counts["ja"]:
        return "ko" if counts["ko"] >= counts["ja"] else "ja"
    return "en"


def check_id(pack_id: str, rules_dir: Path, replace: bool) -> None:
    if not PACK_ID_RE.match(pack_id) or len(pack_id) > MAX_ID:
        raise UserError(t("import.bad_id", id=pack_id[:60], limit=MAX_ID))
    if (rules_dir / pack_id).exists() and not replace:
        raise UserError(t("import.exists", id=pack_id))


def draft(source: Path, title: str | None, level: int | None = None) -> tuple[list[reader.Line], Draft, str]:
    lines = reader.read_document(source)
    blocks, printed = outline.blocks(lines)
    first_heading = next((b for b in blocks if b.kind == "heading"), None)
    if printed:  # its first heading is its first section (62 정책 단계): its name is a line before it
        before = [b for b in blocks if first_heading is None or b.line < first_heading.line]
        found = before[0].lines[0].strip() if before else ""
    else:
        found = first_heading.text if first_heading else ""
    name = (title or "").strip() or found or source.stem
    return lines, cut(blocks, printed, name, level), name


def import_pack(
    source: Path,
    pack_id: str,
    rules_dir: Path,
    *,
    language: str | None = None,
    title: str | None = None,
    dry_run: bool = False,
    replace: bool = False,
    level: int | None = None,
) -> Imported:
    """Read, cut, check and (unless dry_run) write the pack; UserError says why not."""
    check_id(pack_id, rules_dir, replace)
    replaces = (rules_dir / pack_id).exists()
    if language is not None and language not in LANGUAGES:
        raise UserError(t("import.bad_language", languages=", ".join(LANGUAGES)))
    if title is not None and (len(title.strip()) > NAME_MAX or any(unicodedata.category(c)[0] == "C" for c in title)):
        raise UserError(t("import.bad_title", limit=NAME_MAX))  # one line: it is a menu's choice
    lines, drafted, name = draft(source, title, level)
    language = language or guess_language(lines)
    meta = {
        "id": pack_id,
        "names": {code: name[:NAME_MAX] for code in LANGUAGES},
        "language": language,
        "numbering": drafted.numbering,
        "source": f"{name} ({source.name})",
        "credit": f"Imported from {source.name} with `bot.py pack import`: the text as the document gives it; "
        "its rights stay with the document's owners.",
    }
    staging = _staging(rules_dir, pack_id, dry_run)
    try:
        folder = staging / pack_id
        _write(folder, meta, drafted.sections)
        _check(folder, lines, drafted.numbered_lines)
        if not dry_run:
            _move_into_place(folder, rules_dir / pack_id, replace)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Imported(
        pack_id,
        rules_dir / pack_id,
        language,
        drafted.numbering,
        drafted.sections,
        drafted.notes,
        not dry_run,
        replaces,
        drafted.chosen,
        drafted.runner_up,
    )


def _staging(rules_dir: Path, pack_id: str, dry_run: bool) -> Path:
    """Where the pack is written first: beside the packs (so that moving it in is a rename), or,
    for a dry run, in the system's temporary folder (a dry run writes nothing to the packs)."""
    try:
        if dry_run:
            return Path(tempfile.mkdtemp(prefix="pack-import-"))
        rules_dir.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{pack_id}-", dir=rules_dir))
    except OSError:
        raise UserError(t("import.cannot_write", folder=str(rules_dir)[:200])) from None


def _write(folder: Path, meta: dict, drafted: list[dict]) -> None:
    """The pack's files, and an empty search card per section for an admin to fill in (its name
    from the heading: `bot.py pack cards ID --check` lists the rest)."""
    folder.mkdir()
    (folder / cards.FOLDER).mkdir()
    _dump(folder / "pack.yaml", meta)
    width = max(2, len(str(len(drafted))))
    for index, section in enumerate(drafted, 1):
        path = folder / f"{index:0{width}d}.yaml"
        _dump(path, section)
        blank = cards.blank(str(section["id"]), str(section["title"]), meta["language"])
        cards.card_path(path).write_text(blank, encoding="utf-8")


def _dump(path: Path, data: dict) -> None:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1_000_000)
    path.write_text(text, encoding="utf-8")


def _check(folder: Path, lines: list[reader.Line], numbered: set[int]) -> None:
    """The packs' validator and the character-for-character comparison, or a sentence."""
    try:
        pack = load_pack(folder, folder.parent)
    except PackError as exc:  # a defect of the importer, not of the document: say where
        raise UserError(t("import.invalid", problem=exc.messages[0][:300])) from None
    document = squash([_NUMBER_DOT.sub(r"\1", x.text) if x.number in numbered else x.text for x in lines])
    ours = squash(pack_lines(pack))
    if document != ours:
        raise UserError(t("import.unfaithful", where=first_difference(document, ours)))


def _move_into_place(folder: Path, target: Path, replace: bool) -> None:
    """The new pack in; with --replace, the old one moved aside first and put back if the new
    one cannot go in. A pack that appeared meanwhile is never replaced unasked."""
    old = None
    try:
        if target.exists():
            if not replace:
                raise UserError(t("import.exists", id=target.name))
            old = target.with_name(f".{target.name}.replaced")
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
        folder.rename(target)
    except OSError:
        if old is not None and not target.exists():
            old.rename(target)
        raise UserError(t("import.cannot_write", folder=str(target.parent)[:200])) from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
