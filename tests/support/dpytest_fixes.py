"""Workarounds for dpytest 0.7.0 against discord.py ≥ 2.6 (fixed on dpytest master).

discord.py 2.6 sends a role's colour as ``colors={"primary_color": …}``, which
dpytest's fake role factory rejects; patched here rather than pinning an old
discord.py.
"""

from __future__ import annotations

from typing import Any

import discord.ext.test.backend as backend

_patched = False


def patch_dpytest() -> None:
    global _patched
    if _patched:
        return
    original_make_role = backend.make_role

    def make_role(*args: Any, colors: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        if colors and "colour" not in kwargs and "color" not in kwargs:
            kwargs["colour"] = colors.get("primary_color") or 0
        if isinstance(kwargs.get("permissions"), str):
            kwargs["permissions"] = int(kwargs["permissions"])
        return original_make_role(*args, **kwargs)

    backend.make_role = make_role
    _patched = True
