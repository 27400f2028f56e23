"""The core: everything the bot does that does not need Discord, in layers (see the docs:
contributor/architecture): the shared core, the state store, one subpackage per feature (rules, combat, agenda,
galaxy_trucker, site, builtin) and the console. Never imports discord."""
