"""The offline console: the same command table as Discord, typed as lines (lines), answered piped
(app) or as a terminal app (terminal), printed as text (printed), with files it writes (files).
A front end: nothing in the core package imports it."""
