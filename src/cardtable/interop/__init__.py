"""Bridges to other programs: our deals and rules in the formats other solvers read.

Like the CLI and the solver, this package depends on the core and the core never
on it. Each module is named for the program it speaks to:
:mod:`cardtable.interop.solvitaire` writes deals and rules for Solvitaire.
"""
