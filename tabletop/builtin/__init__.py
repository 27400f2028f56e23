"""The commands every front end has whatever features are loaded (/settings, /game, /help), in
commands. It imports the core and the rules, never a front end nor discord."""
