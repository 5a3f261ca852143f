"""``cardtable serve``: a page to play in the browser, its JSON API and its solver worker.

A satellite of the core: it judges every move with :class:`~cardtable.State`
and keeps games in :mod:`cardtable.store`; the page only draws what the API
says and sends what the player does. Build the app with
:func:`cardtable.server.app.create_app`. This package module imports nothing, so
that the solver's worker processes load only :mod:`cardtable.server.solving`.
"""
