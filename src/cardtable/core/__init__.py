"""The rules engine: cards, moves, game specs, positions. Imports nothing else of cardtable."""
