"""The rules as a command-line run opens them: built first when the packs changed (said on
stderr), with the warning an admin needs when they may be stale."""

from __future__ import annotations

import sys

from tabletop.rules import answers, ruledb


def compendium():
    """The rules, with one warning on stderr (and in the log) when they may be stale."""
    from tabletop.core.config import rules_db_path
    from tabletop.rules.compendium import Compendium

    if ruledb.stored_hash(rules_db_path()) != ruledb.content_hash() and ruledb.packs_valid():
        # a first start, or packs edited: say so (invalid packs are not built: the warning says why)
        print(answers.t("rules.building"), file=sys.stderr, flush=True)
    rules = Compendium.open()
    warning = answers.rules_warning(rules)
    if warning:
        print(warning, file=sys.stderr)
    return rules
