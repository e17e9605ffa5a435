"""The ``render`` command line: ``main`` assembles the commands, one module each, and turns a
located error into one line on stderr with exit status 2. Nothing below imports from here."""
