"""Training scripts (torch, training only). The runtime needs OpenCV alone: see vision/dice.py."""
