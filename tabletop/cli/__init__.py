"""The command line (`python bot.py …`): a front end beside the console and Discord, whose
subcommands are made from the same command table, plus the operator's own (build, run, health,
eval, site, pack import). bot.py is its entry point."""
