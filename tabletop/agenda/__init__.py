"""Agenda votes by the agenda-phase rules (glossary 62–63): the rules and their store in the
state database (store), the agenda message (view), and the /agenda commands (commands)."""
