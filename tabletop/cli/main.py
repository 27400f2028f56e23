"""The command line: every subcommand of `python bot.py` (see bot.py), its parser and what each
does. The table's commands (combat, odds, roll) are made from the command table; the rest are
the operator's: run the bot, the console, build, health, eval, the website, sync, pack import."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tabletop import features
from tabletop.cli import arguments
from tabletop.cli.opened import compendium as _compendium
from tabletop.combat.unitdata import UnitDataError, load_unit_tables
from tabletop.console.printed import printed
from tabletop.core import config, logs, text
from tabletop.core.commands import COMMANDS
from tabletop.core.errors import os_reason
from tabletop.core.i18n import speaking
from tabletop.core.payloads import card_payload
from tabletop.rules import answers, backfill, ruledb
from tabletop.rules.packs import PackError

EXIT_USAGE = 2
EXIT_FAULT = 3  # the bot cannot run as configured (a state database it cannot open)


def _state(required: bool = False):
    """The state database; when it cannot be opened, a clear message and (for the console) a
    stand-in that answers every write with that message; for the bot, StateUnavailable."""
    from tabletop.store import StateUnavailable, open_state, stand_in

    try:
        state = open_state()
    except StateUnavailable as exc:
        print(exc.message, file=sys.stderr)
        if required:
            raise
        return stand_in(exc.why)
    if state.refusal:
        print(state.refusal, file=sys.stderr)
    problem = getattr(state, "problem", None)  # a server that is down now: the bot starts all the same
    if problem:
        print(problem, file=sys.stderr)
    return state


def cmd_build(args) -> int:
    from tabletop.core.config import rules_db_path

    try:
        info = ruledb.build()
    except OSError as exc:  # a folder it cannot write, another program's file where the database goes
        print(answers.t("build.cannot_write", path=rules_db_path(), reason=os_reason(exc)), file=sys.stderr)
        return EXIT_USAGE
    packs = ", ".join(answers.t("build.pack", id=k, sections=v) for k, v in info["packs"].items())
    print(answers.t("build.built", path=info["path"], ms=round(info["seconds"] * 1000), packs=packs))
    _embed_waiting(Path(info["path"]))
    try:  # the unit files are combat's own: checked here too, so an admin sees every problem at once
        entries = load_unit_tables()
    except UnitDataError as exc:
        print(answers.t("build.units_bad"), file=sys.stderr)
        for message in exc.messages:
            print(f"  {message}", file=sys.stderr)
        return 1
    print(answers.t("build.units_checked", count=sum(len(rows) for rows in entries.values())))
    from tabletop.combat.odds import compile_ahead  # the first /odds then waits for no compiler

    print(answers.t("build.kernels", seconds=f"{compile_ahead():.1f}"))
    return 0


def _embed_waiting(db_path: Path) -> None:
    """What the build left for later (a big import, backfill.py), embedded now, with progress."""
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        print(answers.t("build.embedding", done=done, total=total), file=sys.stderr, flush=True)

    count = backfill.fill(db_path, progress)
    if count:
        print(answers.t("build.embedded", count=count, seconds=f"{time.perf_counter() - started:.0f}"))


def cmd_rule(args) -> int:
    comp = _compendium()
    try:
        answer = answers.lookup(comp, " ".join(args.query), answers.check_game(comp, args.game))
    except answers.UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    print("\n\n".join(printed(r) for r in answer.replies()))
    return 0


def cmd_search(args) -> int:
    comp = _compendium()
    query = " ".join(args.query)
    queries = [line.rstrip("\r\n") for line in sys.stdin] if query == "-" else [query]  # a file saved on Windows too
    try:
        args.game = answers.check_game(comp, args.game)
    except answers.UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    refused = 0
    for q in queries:
        try:  # the same checks as /search: empty or too long is refused, as `rule` refuses it
            answers.check_query(q)
        except answers.UserError as exc:
            refused += 1
            if args.json:
                shown = q[:50].encode("utf-8", "surrogateescape").decode("utf-8", "replace")  # bytes not UTF-8 as �
                print(json.dumps({"query": shown, "error": exc.message}, ensure_ascii=False))
            else:
                print(exc.message, file=sys.stderr)
            continue
        found = comp.search.find(q, args.game, limit=args.limit)
        results, missing = found.results, found.missing
        if args.json:  # a topic the document lacks: {"id": null, "missing": true, …}
            listed = [r.as_dict() for r in results] or [m.as_dict() for m in missing]
            print(json.dumps({"query": q, "results": listed}, ensure_ascii=False))
            continue
        for m in missing:
            print(answers.t("missing.topic", topic=f"{m.name} ({m.english})", document=comp.packs[args.game].document_name()))
        if not results and not missing:
            try:  # a rule number the pack lacks, with its range, or "no rule found"
                answers.nothing_answers(comp, found, q, args.game)
            except answers.UserError as exc:
                print(exc.message)
        for i, r in enumerate(results, 1):
            print(f"{i:>2}. {answers.result_label(comp, r)}  [{r.how} {r.score:.1f}]")
    return 1 if refused else 0


def cmd_console(args) -> int:
    from tabletop.console import app as console

    if args.state is not None and not args.state.strip():  # --state "" is a mistake, not the default
        print(answers.t("state.empty_path"), file=sys.stderr)
        return 2
    if args.state:
        config.use(state_db=args.state)
    compendium = _compendium(background=True)
    if args.game is not None:  # an unknown game is refused now, not at the first question
        try:
            args.game = answers.check_game(compendium, args.game)
        except answers.UserError as exc:
            print(exc.message, file=sys.stderr)
            return 2
    return console.run(compendium, _state(), as_json=args.json, game=args.game)


def cmd_eval(args) -> int:
    from tabletop.rules import evaluation

    comp = _compendium()
    if args.game is None:  # the pack the file's name starts with (liftoff_players.yaml), else TI4
        try:
            args.game = evaluation.game_of_file(comp, Path(args.file))
        except ValueError:
            args.game = None  # the default pack (check_game)
    try:
        args.game = answers.check_game(comp, args.game)
    except answers.UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    result = evaluation.evaluate(comp, evaluation.load_queries(Path(args.file)), args.game)
    fitted: list[str] = []
    if args.fit:  # the fusion weight and the answer decision fitted on these files, one pack left out
        from tabletop.rules import calibration, fusion

        files: dict[str, list[dict]] = {}
        for f in args.fit:
            files.setdefault(evaluation.game_of_file(comp, Path(f)), []).extend(evaluation.load_queries(Path(f)))
        if len(files) < 2:
            print(answers.t("eval.fit_needs_two"), file=sys.stderr)
            return 1
        ranking = calibration.ranking_leave_one_pack_out(calibration.ranking_rows(comp, files))
        result["ranking"] = ranking
        fitted += calibration.ranking_report(ranking)
        result["rankers"] = calibration.rankers(comp, files)
        fitted += calibration.rankers_report(result["rankers"])
        words_only = tuple(f for f in fusion.ANSWER_FEATURES if f not in ("z", "cosine", "asked", "zq"))  # what needs no model
        for title, dense, features in (("with meaning", True, fusion.ANSWER_FEATURES), ("words only", False, words_only)):
            decision = calibration.leave_one_pack_out(calibration.rows(comp, files, dense), features)
            result[f"answer_decision_{title.replace(' ', '_')}"] = decision
            fitted += calibration.report(decision, title)
    print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else "\n".join([evaluation.report(result), *fitted]))
    if args.min_top1 is not None or args.min_top3 is not None:
        problems = evaluation.failures(result, args.min_top1 or 0, args.min_top3 or 0)
        for p in problems:
            print(f"FAIL: {p}", file=sys.stderr)
        return 1 if problems else 0
    return 0


def cmd_site(args) -> int:
    """Write the rules website; with --serve, preview it on localhost until interrupted."""
    from tabletop.site import build

    comp = _compendium()
    if not comp.packs:
        print(answers.t("rules.unavailable"), file=sys.stderr)
        return 1
    if not args.out.strip():  # "" would write the site into the current folder
        print(answers.t("site.no_folder"), file=sys.stderr)
        return 1
    out = Path(args.out)
    try:
        blocking = next((p for p in (out, *out.parents) if p.exists() and not p.is_dir()), None)
        if blocking is not None:
            key = "site.not_a_folder" if blocking == out else "site.parent_not_a_folder"
            print(answers.t(key, path=text.printable(blocking), out=text.printable(out)), file=sys.stderr)
            return 1
        if build.up_to_date(comp, out, args.locale):
            print(answers.t("site.up_to_date", path=text.printable(out)))
        else:
            stats = build.build(comp, out, args.locale)
            print(answers.t("site.built", path=stats["path"], pages=stats["pages"], packs=stats["packs"]))
    except (OSError, ValueError):  # a folder that cannot be made or written (permissions, a
        # read-only disk, a name too long or with a NUL in it)
        print(answers.t("site.cannot_write", path=text.printable(out)), file=sys.stderr)
        return 1
    if args.serve:
        try:
            server = build.serve(out, args.port, args.host)
        except OSError as exc:  # the port is taken, the address is not this machine's
            print(answers.t("site.cannot_serve", host=args.host, port=args.port, reason=exc.strerror or exc), file=sys.stderr)
            return 1
        print(answers.t("site.serving", url=f"http://{args.host}:{server.server_address[1]}/"), flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


def cmd_render(args) -> int:
    comp = _compendium()
    try:
        args.game = answers.check_game(comp, args.game)
    except answers.UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    refused = False
    try:
        answer = answers.lookup(comp, " ".join(args.query), args.game)
        replies = answer.replies()
    except answers.UserError as exc:  # the payload the bot would send, and a failing exit for scripts
        replies, refused = [answers.error_reply(exc.message)], True
    if args.json:
        print(json.dumps([card_payload(r) for r in replies], ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(printed(r) for r in replies))
    return 1 if refused else 0


def cmd_commands(args) -> int:
    from cogs.client import command_payloads

    print(json.dumps(command_payloads(), ensure_ascii=False, indent=2 if not args.compact else None))
    return 0


def _load_dotenv() -> None:
    """A .env file beside the bot, for the commands that connect to Discord (run, sync): read
    before the configuration is checked and the log set up, so LOG_LEVEL there counts too."""
    try:
        from dotenv import load_dotenv

        load_dotenv()
    except ImportError:  # python-dotenv is optional
        pass


def _token() -> str | None:
    return str(config.setting("discord_token")) or None


def cmd_run(args) -> int:
    token = _token()
    if not token:
        print(answers.t("run.no_token"), file=sys.stderr)
        return EXIT_USAGE
    from cogs.client import run_bot
    from tabletop.core.logs import add_secret
    from tabletop.store import StateUnavailable

    add_secret(token)
    from cogs.client import shard_settings

    try:
        settings = config.load()
        shards = shard_settings({"SHARD_COUNT": settings.shard_count, "SHARD_IDS": settings.shard_ids})
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return EXIT_USAGE
    try:
        with speaking("en"):
            state = _state(required=True)
    except StateUnavailable:
        return EXIT_FAULT
    with speaking("en"):
        _compendium()  # builds or checks the rules database now, and warns the admin once
    return run_bot(token, state, shards)


def cmd_health(args) -> int:
    """For a container HEALTHCHECK: both databases open, and the gateway heartbeat is recent."""
    import sqlite3

    from cogs.lifecycle import HEARTBEAT_STALE, heartbeat_ages
    from tabletop.core.config import rules_db_path

    problems = []
    try:
        conn = sqlite3.connect(f"file:{rules_db_path()}?mode=ro", uri=True)
        conn.execute("select count(*) from sqlite_master").fetchone()
        conn.close()
    except sqlite3.Error as exc:
        problems.append(answers.t("health.rules_db", path=rules_db_path(), error=exc))
    problems += _state_problems()
    from tabletop.rules import dense

    model = dense.embedder()  # degraded, not unhealthy: search then ranks lexically only
    print(answers.t("health.dense") if model.available else answers.t("health.lexical", problem=model.problem))
    ages = heartbeat_ages()
    if not ages:
        problems.append(answers.t("health.no_heartbeat"))
    for shard, age in sorted(ages.items()):
        line = answers.t("health.heartbeat", shard=shard, age=round(age))
        print(line)
        if age > HEARTBEAT_STALE:
            problems.append(line)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(answers.t("health.healthy" if not problems else "health.unhealthy"))
    return 0 if not problems else 1


def _state_problems() -> list[str]:
    """The state store opens and answers a read (a file, or the PostgreSQL server)."""
    from tabletop.store import StateUnavailable, open_state, state_target

    try:  # in the run's language, as every other line
        state = open_state()
    except StateUnavailable as exc:
        return [exc.message]
    try:
        state.logged_roll(0)
    except answers.UserError as exc:
        return [exc.message]
    finally:
        state.close()
    where = f"{state.dialect} {state.target}" if state.dialect == "postgresql" else state_target()
    print(answers.t("health.state", where=where))
    return []


def cmd_sync(args) -> int:
    token = _token()
    if not token:
        print(answers.t("sync.no_token"), file=sys.stderr)
        return EXIT_USAGE
    from cogs.client import failure_reason, sync_commands

    try:
        print(sync_commands(token, args.guild))
    except Exception as exc:  # Discord unreachable, the token refused, no access to the server
        print("sync: " + " ".join(failure_reason(exc).split()), file=sys.stderr)  # Discord's form errors span lines
        return EXIT_FAULT
    return 0


def cmd_combat(args) -> int:
    from tabletop.cli import combat as combat_cli

    return combat_cli.main(args)


def cmd_roll(args) -> int:
    from tabletop.cli import combat as combat_cli

    return combat_cli.roll_main(args)


def cmd_odds(args) -> int:
    from tabletop.cli import combat as combat_cli

    return combat_cli.odds_main(args)


def _port(value: str) -> int:
    """A TCP port, checked before the site is written (a bind would fail only after it)."""
    return _whole(value, 0, 65535)


MAX_LIMIT = 25  # as many as Discord's menu of results holds


def _limit(value: str) -> int:
    return _whole(value, 1, MAX_LIMIT)


def _whole(value: str, low: int, high: int) -> int:
    """A whole number from low to high, for a flag; argparse says which flag is wrong."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(answers.t("cli.not_whole", value=text.printable(value)[:40])) from None
    if not low <= n <= high:
        raise argparse.ArgumentTypeError(answers.t("cli.out_of_range", value=n, low=low, high=high))
    return n


SHELL_SKIPS = ("private",)  # an answer shown to the asker only means nothing in a shell


def parser() -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = arguments.Parser(
        prog="bot.py",
        description="The TI4 rules bot: run it on Discord, or answer rules, odds and dice here (the console "
        "without a Discord token). Each command's --help says more.",
    )
    p.add_argument("--verbose", "-v", action="store_true", help="log debug output")
    sub = p.add_subparsers(dest="command")

    sp = sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    sp.set_defaults(func=cmd_run)
    sp = sub.add_parser("health", help="exit 0 when both databases open and the gateway heartbeat is recent")
    sp.add_argument("--locale", default="ko", choices=("ko", "en", "ja"), help="the language of the report")
    sp.set_defaults(func=cmd_health)
    sp = sub.add_parser("build", help="rebuild the rules database from rules/*.yaml")
    sp.add_argument("--locale", default="ko", choices=("ko", "en", "ja"), help="the language of the report")
    sp.set_defaults(func=cmd_build)
    # /rule and /search's own options, from the command table; the shell adds output flags only
    sp = arguments.add_command(
        sub, COMMANDS["rule"], "rule", skip=SHELL_SKIPS, help="print the section that answers QUERY, matched rule marked"
    )
    sp.set_defaults(func=cmd_rule, game=None)
    sp = arguments.add_command(
        sub,
        COMMANDS["search"],
        "search",
        skip=SHELL_SKIPS,
        help="ranked search results; QUERY '-' reads one query per line from stdin",
    )
    sp.add_argument("--limit", type=_limit, default=5, help=f"results per query, 1 to {MAX_LIMIT} (default 5)")
    sp.add_argument("--json", action="store_true", help="one JSON object per query per line")
    sp.set_defaults(func=cmd_search, game=None)
    sp = sub.add_parser("console", help="offline console speaking the bot's slash commands")
    sp.add_argument("--json", action="store_true", help="print each reply as the Discord JSON payload")
    sp.add_argument("--state", help="state database path (default: STATE_DB or data/state.db)")
    sp.add_argument("--game", default=None, help="rule pack to start with (default: ti4)")
    sp.add_argument("--locale", default="ko", choices=["ko", "en", "ja"], help="the language of the answers' own words")
    sp.set_defaults(func=cmd_console)
    sp = sub.add_parser("eval", help="search quality on a query file")
    sp.add_argument("file")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--game", default=None, help="the pack (default: the one the file name starts with, else ti4)")
    sp.add_argument("--min-top1", type=float, help="exit 1 when top-1 is below this")
    sp.add_argument("--min-top3", type=float, help="exit 1 when top-3 is below this (or a none query answers)")
    sp.add_argument(
        "--fit",
        nargs="+",
        metavar="FILE",
        help="also fit the fusion weight and the answer decision on these files (named <pack>_….yaml) leaving one pack out",
    )
    sp.set_defaults(func=cmd_eval)
    sp = arguments.add_command(
        sub, COMMANDS["rule"], "render", skip=SHELL_SKIPS, help="the exact message payloads for /rule QUERY, every page"
    )
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_render, game=None)
    sp = sub.add_parser("site", help="write the rules website (a static site of every pack) into OUT")
    sp.add_argument("out", metavar="OUT")
    sp.add_argument("--serve", action="store_true", help="then preview it on http://127.0.0.1:PORT/")
    sp.add_argument("--port", type=_port, default=8000, help="the preview's port (default 8000; 0 picks a free one)")
    sp.add_argument("--host", default="127.0.0.1", help="the address to listen on (0.0.0.0 inside a container)")
    sp.add_argument("--locale", default="ko", choices=("ko", "en", "ja"), help="the language of the site's own words")
    sp.set_defaults(func=cmd_site)
    sp = sub.add_parser("commands", help="the application-command payloads the bot would sync")
    sp.add_argument("--json", action="store_true", help="(the output is always JSON)")
    sp.add_argument("--compact", action="store_true")
    sp.set_defaults(func=cmd_commands)
    sp = sub.add_parser("sync", help="sync application commands with Discord (deliberately, not on start)")
    sp.add_argument("--guild", type=int, help="sync to one server only (instant), instead of globally")
    sp.set_defaults(func=cmd_sync)
    from tabletop.cli import combat as combat_cli

    combat_cli.add_parsers(sub, cmd_combat, cmd_roll, cmd_odds)
    from tabletop.cli import imports as import_cli

    import_cli.add_parsers(sub)
    return p


def _mark_parsers(p: argparse.ArgumentParser) -> None:
    """Each subcommand's parser remembers itself, so that an unknown flag is reported with
    that subcommand's usage (`bot.py combat ground: error: …`), not the top level's."""
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sp in action.choices.values():
                sp.set_defaults(_parser=sp)
                _mark_parsers(sp)


def main(argv: list[str] | None = None) -> int:
    features.load()
    argv = sys.argv[1:] if argv is None else argv
    if hasattr(sys.stdin, "reconfigure"):  # a piped line that is not UTF-8 is refused in a sentence, not fatal
        sys.stdin.reconfigure(errors="surrogateescape")
    top = parser()
    _mark_parsers(top)
    with speaking(arguments.requested_locale(argv)), arguments.localized_parsing():
        args, extra = top.parse_known_args(argv)
        if extra:
            getattr(args, "_parser", top).error(answers.t("cli.unrecognized") % " ".join(extra))
    config.forget_choices()
    func = getattr(args, "func", cmd_run)
    if func in (cmd_run, cmd_sync):
        _load_dotenv()
    try:
        with speaking(getattr(args, "locale", None)):  # every message of this run, in --locale
            if any(text.undecodable(arg) for arg in argv):
                print(answers.t("input.not_utf8"), file=sys.stderr)
                return EXIT_USAGE
            config.load()  # a variable the bot cannot use is said now, not by every command
            logs.setup(verbose=args.verbose, quiet="ERROR" if func is cmd_console else "INFO")
            return func(args)
    except config.ConfigError as exc:
        print(exc.message, file=sys.stderr)
        return EXIT_USAGE
    except PackError as exc:
        print("The rule packs have problems; the database was not changed:", file=sys.stderr)
        for message in exc.messages:
            print(f"  {message}", file=sys.stderr)
        return 1
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
