"""Side initiative as pure state + events: ``model`` (the encounter), ``events``,
``rounds`` (surprise, the GM's d6, momentum, advancing through a round), ``turns``
(actions on a side's turn) and ``reactions`` (declared, undeclared, interrupts).
"""
