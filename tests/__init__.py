import os
import sys

# Before the suite's first import (this package's __init__ runs before its conftest):
# the first process compiles what it imports (discord.py, pydantic, Hypothesis, the
# bot…) into __pycache__ once, where PYTHONDONTWRITEBYTECODE would have every worker and
# bot process compile it again (tests/conftest.py's pytest_configure does the rest).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
