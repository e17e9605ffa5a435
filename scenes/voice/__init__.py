"""Voices: what a clip's narration sounds like, and when each of its words is said.

:mod:`.speech` holds the records the rest of gradreel sees (the plan takes only a phrase's
:class:`~.speech.Timing`; the sound track takes its :class:`~.speech.Speech`).
:mod:`.registry` names the voices (``neural``, ``draft``, ``off``, a piper model's path) and makes
one (:func:`~.registry.voice_for`); :mod:`.spoken` says what is said for a written phrase,
:mod:`.cache` keeps each phrase's speech on disk; :mod:`.neural` and :mod:`.draft` are the voices.
"""
