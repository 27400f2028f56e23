"""The rules website: a static site of every pack, one page per section, one anchor per rule
(build), its browser search index (search_index) and what the page needs to read meaning with
the bot's own model (meaning). It imports the core and the rules, never a front end nor discord."""
