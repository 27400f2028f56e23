"""Rules answers: the YAML rule packs (packs), the disposable rules database built from them
(ruledb), the in-memory compendium (compendium), text normalisation (text), search (search), the
pages a section is shown as (answers), search evaluation (evaluation), and /rule and /search."""
