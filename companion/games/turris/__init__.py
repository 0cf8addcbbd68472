"""Turris (Nikita Chigladze, AP Board Games): the Beast Phase, worked out by the rules.

So far: the Main Board graph (`board.py`, assumed map in `turris.toml`) and the Beast
Phase with the Cleanup Phase's Altar track and the Endgame's Beast removal
(`beasts.py`). The players' turns (actions, Missions, Trionfi) are not modelled yet.
"""
