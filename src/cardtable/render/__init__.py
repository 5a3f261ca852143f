"""Pictures of positions for people: a satellite of the core, which never imports it.

>>> from cardtable import deal, load_game
>>> from cardtable.render import layout
>>> print(layout(deal(load_game("fan"), 1)).plain.splitlines()[0])
Fan · deal 1
"""

from cardtable.render.text import console, layout

__all__ = ["console", "layout"]
