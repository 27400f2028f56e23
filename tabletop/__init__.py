"""The core: everything the bot does that does not need Discord, one subpackage per capability
(rules, agenda, combat, galaxy_trucker) and the shared front-end layer (frontend). Never imports
discord."""
