"""Embeds for the 2d10 system's commands (one module per concern)."""
