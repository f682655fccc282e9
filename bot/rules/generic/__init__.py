"""Ruleset-neutral rules: the generic ``/roll`` dice expression (model, limits and the
d20 adapter; entry point :func:`bot.rules.generic_roll.roll_expression`) and ``names``,
the one spelling every ruleset compares typed names in.
"""
