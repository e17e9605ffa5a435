"""The frame checks' watchers (`tests.frame_checks.Watcher`), one module per idea: where things
are placed and how large (`placement`), whether what shows is true and in its colour (`meaning`),
whether things stay themselves from frame to frame (`continuity`), and the printed lines
(`console`)."""
