"""The generic ``/roll`` dice expression: model, limits and the d20 adapter.

The public entry point is :func:`bot.rules.generic_roll.roll_expression`.
"""
