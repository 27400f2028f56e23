"""The commands every front end has whatever features are loaded (/settings, /game, /help)."""
