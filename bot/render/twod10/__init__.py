"""Embeds and text for the 2d10 system (one module per concern)."""
