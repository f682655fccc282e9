"""The 2d10 system's cogs (listed in ``bot.rulesets.RULESETS``)."""
