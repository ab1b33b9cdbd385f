"""Calibration: one profile per table that makes the dice reader near perfect there.

:mod:`~einhorn_table.calibration.profile` is the TOML profile (load, save,
check); :mod:`~einhorn_table.calibration.flow` the guided flow on the table's
screen; :mod:`~einhorn_table.calibration.from_labelled` builds a profile from
labelled photos of one setup.
"""
