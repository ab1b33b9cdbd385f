"""Bots and simulated matches: standard library only, like the rules they play."""
