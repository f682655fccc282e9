"""The initiative tracker's message in a channel, for every ruleset: posted, edited,
pinned, closed.
"""
