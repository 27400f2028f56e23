"""The compendium: every pack, section and rule from the rules database, held in memory, with
lookups by id and the search engine attached. Front ends ask it; none of them reads SQL.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, cast

from tabletop.core import settings
from tabletop.rules import backfill, rows, ruledb
from tabletop.rules.packs import Pack, Rule, Section, Term

if TYPE_CHECKING:
    from tabletop.core.commands import Context
    from tabletop.rules.search import SearchEngine

DEFAULT_GAME = settings.DEFAULT_GAME


@dataclass(frozen=True)
class RelatedTopic:
    name: str
    target: str | None  # section id in the same pack, or None when the pack does not have it


class Compendium:
    def __init__(self, db_path: Path, conn: sqlite3.Connection | None = None):
        self.db_path = Path(db_path)
        self.user_dictionary = ruledb.user_dictionary_path(self.db_path)
        # check_same_thread=False: the Discord bot calls from its event loop thread and from
        # executor threads; the connection is only ever read.
        self.conn = conn or sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, check_same_thread=False)
        self.packs: dict[str, Pack] = {}
        self._sections: dict[tuple[str, str], Section] = {}
        self._related: dict[tuple[str, str], tuple[RelatedTopic, ...]] = {}
        self._summaries: dict[tuple[str, str], dict[str, str]] = {}
        self.status = ruledb.Status(self.db_path)  # why the answers may be stale, for the admin
        self.waiting: dict[str, int] = {}  # pack -> its texts the build left to embed later (backfill.py)
        self._closing = threading.Event()  # ends embed_waiting after its chunk at hand
        self._load()

    @classmethod
    def open(cls, db_path: Path | None = None) -> Compendium:
        """Open the rules database, rebuilding it first when the YAML has changed. When it
        cannot be rebuilt (invalid packs, a read-only filesystem) the last good database
        answers, and `status` says why; with no database at all, the compendium is empty."""
        status = ruledb.ensure_served(db_path=db_path)
        if status.path is not None:
            compendium = cls(status.path)
        else:
            compendium = cls.empty()
        compendium.status = status
        return compendium

    @classmethod
    def empty(cls) -> Compendium:
        """No rule packs at all (none could be built): commands that do not need the rules
        (dice, combat, agendas) keep working, and rules commands say why they cannot."""
        return cls(Path(":memory:"), sqlite3.connect(":memory:", check_same_thread=False))

    def _has(self, table: str) -> bool:
        return self.conn.execute("select 1 from sqlite_master where type = 'table' and name = ?", (table,)).fetchone() is not None

    def _records(self, table_and_order: str) -> sqlite3.Cursor:
        """Every row of a table, each readable by column name (rows.value reads them so)."""
        cursor = self.conn.cursor()
        cursor.row_factory = sqlite3.Row
        return cursor.execute(f"select * from {table_and_order}")

    def _load(self) -> None:
        if not self._has("sections"):
            return
        c = self.conn
        self.waiting = backfill.waiting(c)
        rules: dict[tuple[str, str], list[Rule]] = {}
        for record in self._records("rules order by pack, section, position"):
            rules.setdefault((record["pack"], record["section"]), []).append(rows.value(Rule, record))
        aliases: dict[tuple[str, str], list[str]] = {}
        for pack, section, alias in c.execute("select pack, section, alias from aliases order by rowid"):
            aliases.setdefault((pack, section), []).append(alias)
        related: dict[tuple[str, str], list[RelatedTopic]] = {}
        for pack, section, name, target in c.execute(
            "select pack, section, name, target from related order by pack, section, position"
        ):
            related.setdefault((pack, section), []).append(RelatedTopic(name, target))
        self._related = {k: tuple(v) for k, v in related.items()}
        sections: dict[str, list[Section]] = {}
        for record in self._records("sections order by pack, number"):
            key = (record["pack"], record["id"])
            s = rows.value(
                Section,
                record,
                aliases=tuple(aliases.get(key, ())),
                rules=tuple(rules.get(key, ())),
                related=tuple(t.name for t in self._related.get(key, ())),
            )
            sections.setdefault(s.pack, []).append(s)
            self._sections[key] = s
        if self._has("cards"):
            for pack, section, language, summary in c.execute(
                "select pack, section, language, text from cards where kind = 'summary'"
            ):
                self._summaries.setdefault((pack, section), {})[language] = summary
        lexicons: dict[str, list[Term]] = {}
        for record in self._records("lexicon order by pack, position"):
            lexicons.setdefault(record["pack"], []).append(rows.value(Term, record))
        for record in self._records("packs order by position"):
            pid = record["id"]
            self.packs[pid] = rows.value(
                Pack, record, sections=tuple(sections.get(pid, ())), lexicon=tuple(lexicons.get(pid, ()))
            )

    # --- lookups -------------------------------------------------------------------------

    def pack(self, game: str | None = None) -> Pack | None:
        return self.packs.get(game or DEFAULT_GAME)

    def section(self, game: str, section_id: str) -> Section | None:
        return self._sections.get((game, section_id))

    def known_section(self, game: str, section_id: str) -> Section:
        """A section the caller got from this compendium (a search result, a related topic's
        target): its absence is a bug, not a user's mistake."""
        section = self._sections.get((game, section_id))
        if section is None:
            raise LookupError(f"no section {game}/{section_id}")
        return section

    def section_by_number(self, game: str, number: int) -> Section | None:
        pack = self.packs.get(game)
        return next((s for s in pack.sections if s.number == number), None) if pack else None

    def summary(self, section: Section, language: str) -> str:
        """Our search card's summary of a section in a language ("" when its card has none):
        shown to a reader of another language than the pack's, labelled as ours."""
        return self._summaries.get((section.pack, section.id), {}).get(language, "")

    def related(self, section: Section) -> tuple[RelatedTopic, ...]:
        return self._related.get((section.pack, section.id), ())

    @cached_property
    def search(self) -> SearchEngine:
        """The search engine over these packs, made on first use (it loads the analyser)."""
        from tabletop.rules.search import SearchEngine

        return SearchEngine(self)

    def embed_waiting(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Embed what the build left for later (backfill.py); from then on the packs it completes
        are searched by meaning too. Returns how many texts were embedded."""
        if not self.waiting:
            return 0
        done = backfill.fill(self.db_path, progress, self._closing)
        if self._closing.is_set():  # closed meanwhile: the cache keeps what was embedded
            return done
        finished = [pack for pack in self.waiting if pack not in backfill.waiting(self.conn)]
        self.waiting = backfill.waiting(self.conn)
        if "search" in self.__dict__:  # an engine already made reads the new vectors
            for pack in finished:
                self.search.refresh(pack)
        return done

    def embed_in_background(self) -> threading.Thread | None:
        """embed_waiting in a thread of its own (the bot and the console answer meanwhile)."""
        if not self.waiting:
            return None
        worker = threading.Thread(target=self.embed_waiting, name="embed-later", daemon=True)
        worker.start()
        return worker

    def close(self) -> None:
        self._closing.set()
        self.conn.close()


def compendium_of(ctx: Context) -> Compendium:
    """A context's rules as the Compendium the front end opened (the core knows them only as a
    core.ports.RuleLibrary: the rules sit above it)."""
    return cast(Compendium, ctx.compendium)
