"""Rules engines, one module per game, behind one protocol (base.py)."""
