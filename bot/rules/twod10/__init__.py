"""The 2d10 system: pure rules (no Discord, no database, no I/O); ruleset key "2d10".

Characters: ``attributes``, ``skills``, ``character``; tasks: ``difficulty``,
``tasks``, ``bands``; combat: ``categories``, ``equipment``, ``wielding``,
``attack``, ``damage``, ``maneuvers``, ``ranged``, ``reactions``; side
initiative: ``initiative``; survival: ``healing``, ``dying``, ``medicine``,
``disease``; resources: ``light``, ``ammo``, ``rations``, ``encumbrance``;
``morale``; ``magic``; every ruling on the text: ``rulings``.
"""

RULESET_KEY = "2d10"
