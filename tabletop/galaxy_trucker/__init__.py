"""Galaxy Trucker's small dice resolvers: meteors and shots, sabotage (/gt)."""
