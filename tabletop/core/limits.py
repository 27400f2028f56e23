"""How long an answer may take: the front ends enforce it, and whatever waits on something
outside the process (the state store) gives up well before it, so that a user is told why in
time instead of getting Discord's "the application did not respond"."""

# Discord drops an interaction not answered within 3 s; sending the answer takes the rest.
ANSWER_LIMIT = 2.5
