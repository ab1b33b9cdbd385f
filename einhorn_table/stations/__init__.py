"""The players' button stations: pin map, debouncing, gestures and what they mean.

Everything here is pure (standard library only) and driven by timestamps, so it
is tested with a fake clock; the adapters (``einhorn_table.adapters.gpio_buttons``,
``einhorn_table.adapters.keyboard_controls``) feed it raw button events.
"""

#: The most players a match has (RULES.md section 2), hence the most stations.
MAX_STATIONS = 6
