"""The command line: a satellite of the core, which never imports it."""
