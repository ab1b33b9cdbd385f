"""The table companion's match flow: the controller, its events, the recorder, the bots.

Pure Python driven by events and a clock (no pygame, cv2 or gpiozero here), so
every flow at the table can be replayed in a test.
"""
