"""Heroes of Countless Stories: pure rules (no Discord, no database, no I/O).

Skill rolls: ``modifiers`` (boons/banes), ``pool`` (values), ``rolling`` (roll,
post-roll modifiers, rerolls), ``determination``, ``difficulty``, ``check``
(tests), ``clash``; characters: ``attributes``, ``skills``, ``character``.
"""
