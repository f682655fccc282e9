"""The 2d10 system's commands (RulesetCog subclasses, listed in bot.rulesets)."""
