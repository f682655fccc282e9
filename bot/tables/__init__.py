"""Tables and permissions: who is the GM, who may act for a character, who may read an
NPC's state.
"""
