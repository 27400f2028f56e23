"""Combat dice and exact odds: the unit files (unitdata), units, effects and the side parser
(units), what changes units before a fight (transforms), a side's state (model), a fight's stages
(battle), the rolls before the rounds as exact branches (precombat), directed hits (directed),
shielded sides (shielded), hits as exact distributions (hits), rolled battles (resolver), exact
odds (odds) with its budget (budget) and its tally of where a fight ends (tally), reachable side states (sidestates), the rounds after the
first (levels) and their compiled loops (kernel), what the odds answer (outcome), the chart
(chart), the pages (report), the cards a player plays at a moment (the played package, one module
per card), a fight's options (options) and its assembly from them (assembly), and the /combat,
/odds, /roll commands (commands). It imports the core, never the rules, a front end nor discord."""
