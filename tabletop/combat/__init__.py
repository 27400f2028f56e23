"""Combat dice: the unit catalogue (units), seeded dice (dice), the battle resolver (resolver),
battle reports (report), the /combat and /roll commands (commands), and the shell entry (cli)."""
