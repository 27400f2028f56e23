"""Bring your own rulebook: a text, Markdown or Word document read as lines (reader), shaped into
headings, paragraphs and items (outline), cut where its shape says (shape) into sections and
rules (sections), checked character for character (fidelity) and written as a rule pack
(writer). It imports the core and the rules, never a front end nor discord."""
