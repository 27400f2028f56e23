"""The Discord front end: the client and its lifecycle (client, lifecycle), the command table
made into slash commands (commands) and persistent buttons and forms (components, registry),
answers as layout cards (cards) with their context and sending (ui), core work off the event loop
(workers), errors answered privately (errors), and how the rules' and agendas' answers are shown
(rules, agenda). Only this package imports discord."""
