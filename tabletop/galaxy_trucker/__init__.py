"""Galaxy Trucker's small dice resolvers: meteors, shots and sabotage (dice) and the /gt commands
(commands). It imports the core and the rules, never a front end nor discord."""
