"""Renderers of the 2d10 system (one module per concern)."""
