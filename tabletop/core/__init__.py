"""What every feature and front end shares, and nothing else imports downward from: the command
table and its context, settings, errors, paths, library-neutral pages, UI strings and text
utilities. It never imports a feature, the store's backends or discord."""
