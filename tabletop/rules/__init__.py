"""Rules answers: the YAML rule packs (packs) and their search cards (cards), the disposable rules
database built from them (ruledb, rows), the in-memory compendium (compendium), search (search)
with its tokens (tokenizing), Korean lemmas (morph), cross-lingual readings (crossling), the
lexical ranker (lexical), the card questions' words (cardwords), the embedding model (dense)
and a big pack's vectors embedded after its build (backfill), the fusion and the answer decision (fusion), their fitting (calibration), the cards' model check
(cardcheck), links to the website (links), the pages a section is shown as (answers), search
evaluation (evaluation) and /rule and /search (commands). It imports the core, never the store's
backends, a front end nor discord."""
