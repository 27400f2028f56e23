"""The offline console: the same command table as Discord, typed as lines (lines), piped (app)
or as a terminal app with numbered buttons (terminal)."""
