"""The doctor's checks, in one place. Each returns a :class:`CheckResult` and never raises
for a problem it can explain: the problem goes into the report, with what to do."""

from einhorn_table.doctor.button_checks import (
    check_buttons,
    check_pin_map,
    serial_console_enabled,
    walk_buttons,
)
from einhorn_table.doctor.camera_check import GOOD_FPS, MIN_FPS, check_camera
from einhorn_table.doctor.screen_check import SIMULATED_DRIVERS, check_screen
from einhorn_table.doctor.system_checks import (
    GROUPS,
    STOP_THE_SERVICE,
    check_groups,
    check_profile,
    check_reader,
    check_service,
    check_state_dir,
    default_source,
    default_state_dir,
)
from einhorn_table.doctor.table_check import (
    check_calibrated_players,
    check_names_shown,
    check_table_file,
)
from einhorn_table.doctor.tray_check import check_picture_size, check_tray_place
from einhorn_table.doctor.view_check import check_camera_view

__all__ = [
    "GOOD_FPS",
    "GROUPS",
    "MIN_FPS",
    "SIMULATED_DRIVERS",
    "STOP_THE_SERVICE",
    "check_buttons",
    "check_calibrated_players",
    "check_camera",
    "check_camera_view",
    "check_groups",
    "check_names_shown",
    "check_picture_size",
    "check_pin_map",
    "check_profile",
    "check_reader",
    "check_screen",
    "check_service",
    "check_state_dir",
    "check_table_file",
    "check_tray_place",
    "default_source",
    "default_state_dir",
    "serial_console_enabled",
    "walk_buttons",
]
