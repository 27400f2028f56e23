"""The rules as a command-line run opens them: built first when the packs changed (said on
stderr), with the warning an admin needs when they may be stale."""

from __future__ import annotations

import sys

from tabletop.rules import answers, ruledb


def compendium(background: bool = False):
    """The rules, with one warning on stderr (and in the log) when they may be stale, and one
    per pack whose meaning search waits for its texts to be embedded: `background`, a run that
    lasts (the console) embeds them meanwhile; a one-shot command says how to finish them."""
    from tabletop.core.config import rules_db_path
    from tabletop.rules.compendium import Compendium

    if ruledb.stored_hash(rules_db_path()) != ruledb.content_hash() and ruledb.packs_valid():
        # a first start, or packs edited: say so (invalid packs are not built: the warning says why)
        print(answers.t("rules.building"), file=sys.stderr, flush=True)
    rules = Compendium.open()
    warning = answers.rules_warning(rules)
    if warning:
        print(warning, file=sys.stderr)
    if rules.waiting and rules.search.dense_available:
        key = "rules.waiting.background" if background else "rules.waiting.later"
        for pack, count in rules.waiting.items():
            print(answers.t(key, pack=pack, count=count), file=sys.stderr)
        if background:
            rules.embed_in_background()
    return rules
