"""Surveys: the winnability of thousands of deals, on one machine or a Dask cluster.

The pieces, each in its own module and each usable alone:

* :mod:`~cardtable.survey.task`: one deal solved, as a worker does it;
* :mod:`~cardtable.survey.executors`: where deals are solved (processes, Dask);
* :mod:`~cardtable.survey.runner`: a range of deals, planned, solved and stored;
* :mod:`~cardtable.survey.store`: the results in SQLite;
* :mod:`~cardtable.survey.stats`: what the results say (Wilson intervals, times);
* :mod:`~cardtable.survey.plot`: the picture (matplotlib, imported on demand).

The survey depends on the core and the solver; neither knows it exists.
"""
