"""Bring your own rulebook: a text, Markdown or Word document cut into a rule pack (rules/<id>/),
its words kept exactly, with a report of what was guessed."""
