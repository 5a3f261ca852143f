"""Tests of ``cardtable serve``: the store, the JSON API, and the page in a real browser."""
