"""The screen: a pure view model (what to show) and a pygame renderer (how it looks)."""
