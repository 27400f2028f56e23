"""Agenda votes by the agenda-phase rules (glossary 62–63): the agenda and its outcomes (model),
the rules that decide a vote (rules), the whole phase's order (phase), the timing windows players
pass or play in (windows), its tables (schema) and queries (store) in the state database, the
agenda message (view) and the /agenda commands (commands). It imports the core, the rules and the
store's interface, never a front end nor discord."""
