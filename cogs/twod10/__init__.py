"""The 2d10 system's commands (RulesetCogs registered in bot.rulesets)."""
