"""Where things go, computed without Manim: the graph of a log's tensors, its layered layout in
the theme's region, spots for labels beside cards and edges, and the regions of a clip."""
