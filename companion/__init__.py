"""Towers Companion: the application (rules, sessions, web)."""
