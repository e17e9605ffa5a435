"""Voices: what a clip's narration sounds like, and when each of its words is said.

:mod:`.speech` holds the records the rest of gradreel sees (the plan takes only a phrase's
:class:`~.speech.Timing`; the sound track takes its :class:`~.speech.Speech`).
"""
