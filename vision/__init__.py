"""Vision: camera frames to Observations (numpy/OpenCV only). Filled in by the vision issue."""
