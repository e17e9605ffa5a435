"""Hostile and faulty inputs: the promise holds for each class of them.

The promise: bad input gets one clear message naming the file, line and what was expected, exit
status 2, no traceback; nothing already rendered is lost; nothing but the whitelisted subset
ever runs, and nothing read back from a cache runs code. One test per class of input that once
broke it (issue 23), a module per theme (cache, bounds, cli, storyboards, outputs, messages,
processes); the inputs that are files live in the folders here. A class that used to hang runs
in a subprocess whose timeout is the bound: the harness stops it, no test sleeps.
"""
