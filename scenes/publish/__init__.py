"""The written version of a clip and the course site: HTML and Markdown made from the clip's
outputs and its event log.

An article (:mod:`.article`) is a folder, ``DIR/NAME/``: ``index.html`` and ``NAME.md`` with the
clip, its poster, its captions and chapters as WebVTT, an SVG figure per beat drawn from the
plan (:mod:`.figures`, :mod:`.svg`), the page's style and its one script (the stepping walk,
:mod:`.steps`) beside them, so that the folder works opened from disk and served over HTTP, from
no other host. Its text is the storyboard's ``article:`` or is written from the plan, a section
per beat (:mod:`.sections`), with each visit's arithmetic and the picture's numbers as the screen
writes them (:mod:`.arithmetic`, :mod:`.pictured`) and links along its course (:mod:`.coursenav`).
Every number it shows is read from the log, as the clip's are (:mod:`.values`). The site
(:mod:`.site`) is ``DIR/index.html``, the course page. Both are rebuilt only when what
they show changed (:mod:`.freshness`).

Above ``render`` in the import layers: it asks the pipeline for the clip, and never reaches a
frame, so its code is not part of a clip's key.
"""
