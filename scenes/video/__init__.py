"""From a scene to video frames: the frame-exact timeline, the player that draws steps (only what
moved), the path-caching camera, damaged rectangles, digests of what is on screen, and the x264
encoder that the frames stream into."""
