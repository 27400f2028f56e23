"""`python bot.py pack import FILE --id ID`: a rulebook into a rule pack, with a report of what
was guessed. An admin's command (it writes files), so it has no Discord front end."""

from __future__ import annotations

import sys
from pathlib import Path

from tabletop.cli import cards
from tabletop.core import config
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.packimport.writer import Imported, import_pack


def add_parsers(sub) -> None:
    pack = sub.add_parser("pack", help="rule packs: import a rulebook as a pack, check its search cards").add_subparsers(
        dest="pack_command", required=True
    )
    p = pack.add_parser(
        "import",
        help="cut a UTF-8 text, Markdown or .docx rulebook into rules/ID/ (every character kept, in order)",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--id", required=True, dest="pack_id", help="the pack's id: lower-case letters, digits, dashes")
    p.add_argument("--language", help="the document's language: ko, ja or en (default: guessed)")
    p.add_argument("--title", help="the game's name (default: the first heading, else the file name)")
    p.add_argument(
        "--dry-run", action="store_true", help="print the report (with the cut chosen and the runner-up), write nothing"
    )
    p.add_argument(
        "--level",
        type=int,
        choices=range(1, 7),
        metavar="N",
        help="start sections at headings of level N (default: from the shape)",
    )
    p.add_argument("--replace", action="store_true", help="replace a pack with this id")
    p.add_argument("--locale", default="ko", choices=("ko", "en", "ja"), help="the language of the report")
    p.set_defaults(func=main)
    cards.add_parser(pack)


def main(args) -> int:
    try:
        done = import_pack(
            Path(args.file),
            args.pack_id,
            config.rules_dir(),
            language=args.language,
            title=args.title,
            dry_run=args.dry_run,
            replace=args.replace,
            level=args.level,
        )
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    print("\n".join(report(done)))
    return 0


def report(done: Imported) -> list[str]:
    """What was made and every guess, by line of the file, then where it went."""
    rules = sum(len(s.get("rules", [])) for s in done.sections)
    lines = [
        t(
            "import.report.head",
            id=done.pack_id,
            sections=len(done.sections),
            rules=rules,
            language=done.language,
            numbering=done.numbering,
        )
    ]
    for cut, key in ((done.cut, "import.report.cut"), (done.runner_up, "import.report.runner_up")):
        if cut is not None:
            shown = t("import.cut.numbered") if done.numbering == "source" else t("import.cut.level", level=cut.level)
            lines.append(t(key, cut=shown, sections=cut.sections, score=f"{cut.score:.2f}", level=cut.level))
    for note in sorted(done.notes, key=lambda n: n.line):
        lines.append(t("import.report.line", line=note.line, note=t(note.key, **note.values)))
    if done.replaces:
        lines.append(t("import.report.replaces", id=done.pack_id))
    lines.append(t("import.report.written" if done.written else "import.report.dry", folder=done.folder))
    return lines
