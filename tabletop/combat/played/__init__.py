"""Action cards a player plays in a fight at a moment of their choosing: each card is one module
here, one class in the registry (card.py), holding its names' entry id, the fights it acts in,
when it is played by default and what it does. The dice (resolver) and both exact solvers (odds)
ask the registry through moment.py and never name a card: Emergency Repairs (emergency_repairs),
Courageous to the End (courageous), Hardlight (hardlight), Divinity (divinity) and Lash (lash).

The calculators players use play such a card at its first opportunity, and so do we, said in
the reply; `card@N` plays it at its first opportunity from round N on. A card is played once a
fight: after it, the fight goes on as a fight of the sides it left, without it (moment.py)."""

from tabletop.combat.played import courageous, divinity, emergency_repairs, hardlight, lash
from tabletop.combat.played.card import CARDS, PlayedCard

__all__ = ["CARDS", "PlayedCard", "courageous", "divinity", "emergency_repairs", "hardlight", "lash"]
