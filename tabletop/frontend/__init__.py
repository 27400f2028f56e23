"""What every front end shares: the command table (commands), library-neutral pages (render),
the state database (state), UI strings from catalogues (i18n), built-in commands (builtin) and
the offline console (console)."""
