# Sourced by ./start and ./check: makes .venv beside this repository and
# installs the companion into it (with EXTRAS, e.g. "[dev]").
# On a Raspberry Pi the camera and GPIO libraries come from Raspberry Pi OS:
# they are installed with apt (with the display libraries the screen needs) and
# the venv sees them (--system-site-packages).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"

is_pi=0
if [ -r /proc/device-tree/model ] && grep -qi "raspberry pi" /proc/device-tree/model 2>/dev/null; then
    is_pi=1
fi

if [ "$is_pi" = 1 ]; then
    missing=""
    # The camera and GPIO libraries; EGL, GLES and GBM for the screen on the console
    # (SDL's kmsdrm driver loads them; Raspberry Pi OS Lite may lack them); fonts with
    # the letters of names pygame's own font lacks (Chinese, Japanese, Korean, Arabic...).
    for pkg in python3-picamera2 python3-lgpio libegl1 libgles2 libgbm1 libgl1-mesa-dri \
               fonts-dejavu-core fonts-droid-fallback; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
    done
    if [ -n "$missing" ]; then
        echo "Installing the Pi's camera, GPIO and display libraries and fonts:$missing"
        sudo apt-get update && sudo apt-get install -y $missing
    fi
fi

# On a Pi the venv must see the system's picamera2 and lgpio: one made without
# --system-site-packages (by hand, or copied from elsewhere) is made again.
if [ "$is_pi" = 1 ] && [ -f "$venv/pyvenv.cfg" ] \
    && grep -qi "^include-system-site-packages *= *false" "$venv/pyvenv.cfg"; then
    echo "The Python environment in $venv cannot see the Pi's camera library; making it again"
    rm -rf "$venv"
fi

# A venv left half made (python3-venv was missing at the first run) or made with a
# Python older than 3.11 is made again.
if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c \
    'import sys, pip; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
    echo "The Python environment in $venv is incomplete or too old; making it again"
    rm -rf "$venv"
fi

if [ ! -x "$venv/bin/python" ]; then
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "Einhorn Table needs Python 3.11 or newer, but $python is" \
            "$("$python" -V 2>/dev/null || echo missing)." >&2
        echo "Install a newer one (python.org, or your system's packages), then run this" \
            "again; PYTHON=python3.12 $0 picks a given one." >&2
        exit 1
    fi
    echo "Making a Python environment in $venv"
    venv_options=""
    if [ "$is_pi" = 1 ]; then
        venv_options="--system-site-packages"
    fi
    if ! "$python" -m venv $venv_options "$venv"; then
        rm -rf "$venv"
        echo "Could not make the Python environment (on Debian or Ubuntu:" \
            "sudo apt install python3-venv), then run this again." >&2
        exit 1
    fi
fi

stamp="$venv/.installed${EXTRAS:-}"
if [ ! -f "$stamp" ] || [ "$here/pyproject.toml" -nt "$stamp" ] \
    || [ "$here/scripts/bootstrap.sh" -nt "$stamp" ]; then
    echo "Installing Einhorn Table and what it needs (once; a minute or two)"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    if [ "$(uname -s)" = Linux ] && [ "$(uname -m)" = aarch64 ] \
        && "$venv/bin/python" -c 'import sys, importlib.metadata as m; sys.exit(not str(m.distribution("pygame").locate_file("")).startswith(sys.prefix))' 2>/dev/null; then
        # pygame-ce replaces pygame here (see pyproject.toml): the two share a folder.
        "$venv/bin/python" -m pip uninstall --quiet --yes pygame
    fi
    "$venv/bin/python" -m pip install --quiet -e "$here${EXTRAS:-}"
    if [ "$is_pi" = 1 ]; then
        # Raspberry Pi OS builds picamera2's JPEG library (simplejpeg) for its own numpy
        # 1; the venv's numpy 2 needs the PyPI build, which the venv then finds first.
        "$venv/bin/python" -m pip install --quiet --no-deps --ignore-installed \
            "simplejpeg>=1.8.1"
    fi
    touch "$stamp"
fi
