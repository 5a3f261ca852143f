"""``python -m cardtable``: the ``cardtable`` command, for where its script is not on the PATH."""

from cardtable.cli.main import main

main()
