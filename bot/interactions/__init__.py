"""How commands reach the bot: per-ruleset command catalogues and their sync, option
checks, user-text rules, the component guard and the error handler.
"""
