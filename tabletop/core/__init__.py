"""What every feature and front end shares, and nothing else imports downward from: the command
table and its context (commands), buttons and menus (components), configuration (config), dice
(dice), errors (errors), UI strings (i18n), time limits (limits), logging (logs), heavy work in
processes of its own (offload), paths (paths), Discord's payload limits (payloads), what the core
asks of the layers above (ports), library-neutral pages (render), server settings (settings), text utilities (text) and time zones
(timezones). It never imports a feature, the store's backends or discord."""
