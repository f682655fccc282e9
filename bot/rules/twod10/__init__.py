"""The 2d10 system: pure rules (no Discord, no database, no I/O); ruleset key "2d10".

Characters: ``attributes``, ``skills``, ``character``; tasks: ``difficulty``,
``tasks``, ``bands``; combat: ``categories``, ``equipment``, ``wielding``,
``attack``, ``damage``, ``maneuvers``, ``ranged``, ``reactions``; side
initiative: ``initiative``; every ruling on the text: ``rulings``.
"""

RULESET_KEY = "2d10"
