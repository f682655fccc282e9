"""Heroes of Countless Stories' commands: sheets, rolls, odds, combat, initiative, points,
resting.
"""
