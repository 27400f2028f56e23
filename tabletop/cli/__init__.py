"""The command line (`python bot.py …`): a front end beside the console and Discord. main (every
subcommand and its parser), arguments (parsers made from the command table), combat (`combat`,
`odds`, `roll`), imports (`pack import`), cards (`pack cards`), opened (the rules as a run opens
them), reference (the docs site's tables made from the command table and the variables). bot.py
is its entry point. Nothing in the core package imports it."""
