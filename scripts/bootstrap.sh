# Sourced by ./start and ./check: makes .venv beside this repository and
# installs the companion into it (with EXTRAS, e.g. "[dev]").
# On a Raspberry Pi the camera and GPIO libraries come from Raspberry Pi OS
# (Bookworm with Python 3.11, or Trixie with Python 3.13): they are installed with
# apt (with the display libraries the screen needs) and the venv sees them
# (--system-site-packages).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"

# (EINHORN_DEVICE_MODEL: another file to read the machine's model from, for the tests.)
model="${EINHORN_DEVICE_MODEL:-/proc/device-tree/model}"
is_pi=0
if [ -r "$model" ] && grep -qi "raspberry pi" "$model" 2>/dev/null; then
    is_pi=1
fi

# What the first run downloads needs the internet: said where a download failed,
# instead of leaving the parent with the package tools' own last words.
offline_help() {
    echo "" >&2
    echo "Could not install $1, which the first run downloads from the internet:" \
        "check that this computer is online (Wi-Fi or cable), then run $0 again." \
        "If it is online, the lines above say what went wrong." >&2
    exit 1
}

# A folder to install into that this user may not write (cloned with sudo and not
# handed over, or a .venv made by "sudo ./start"): said with the command that hands it
# over, instead of "Permission denied" in the middle of an install.
must_write() {
    if [ -e "$1" ] && [ ! -w "$1" ]; then
        echo "$1 belongs to $(ls -ld "$1" | awk '{print $3}'), so $0 cannot install" \
            "into it as $(id -un). Make it yours:" >&2
        echo "    sudo chown -R \"\$USER\": $here" >&2
        echo "then run $0 again (without sudo)." >&2
        exit 1
    fi
}

if [ "$is_pi" = 1 ]; then
    missing=""
    # The camera and GPIO libraries; EGL, GLES and GBM for the screen on the console
    # (SDL's kmsdrm driver loads them; Raspberry Pi OS Lite may lack them); fonts with
    # the letters of names pygame's own font lacks (Chinese, Japanese, Korean, Arabic...);
    # Python's venv module, which Debian keeps apart and some Lite images lack (else
    # the venv below fails and the parent must install it and start again). The same
    # names on Bookworm and Trixie.
    for pkg in python3-picamera2 python3-lgpio libegl1 libgles2 libgbm1 libgl1-mesa-dri \
               fonts-dejavu-core fonts-droid-fallback python3-venv; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
    done
    if [ -n "$missing" ]; then
        echo "Installing the Pi's camera, GPIO and display libraries and fonts:$missing"
        sudo apt-get update || offline_help "the Raspberry Pi OS packages$missing"
        sudo apt-get install -y $missing || offline_help "the Raspberry Pi OS packages$missing"
    fi
fi

# On a Pi the venv must see the system's picamera2 and lgpio: one made without
# --system-site-packages (by hand, or copied from elsewhere) is made again.
if [ "$is_pi" = 1 ] && [ -f "$venv/pyvenv.cfg" ] \
    && grep -qi "^include-system-site-packages *= *false" "$venv/pyvenv.cfg"; then
    echo "The Python environment in $venv cannot see the Pi's camera library; making it again"
    must_write "$here"
    must_write "$venv"
    rm -rf "$venv"
fi

# A venv left half made (python3-venv was missing at the first run) or made with a
# Python older than 3.11 is made again.
if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c \
    'import sys, pip; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
    echo "The Python environment in $venv is incomplete or too old; making it again"
    must_write "$here"
    must_write "$venv"
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
    must_write "$here"
    echo "Making a Python environment in $venv"
    venv_options=""
    if [ "$is_pi" = 1 ]; then
        venv_options="--system-site-packages"
    fi
    if ! "$python" -m venv $venv_options "$venv"; then
        rm -rf "$venv"
        echo "Could not make the Python environment in $venv (the lines above say" \
            "why). Where Python's venv module is missing (on Raspberry Pi OS, Debian" \
            "or Ubuntu), install it with: sudo apt install python3-venv" >&2
        echo "Then run $0 again." >&2
        exit 1
    fi
fi

stamp="$venv/.installed${EXTRAS:-}"
if [ ! -f "$stamp" ] || [ "$here/pyproject.toml" -nt "$stamp" ] \
    || [ "$here/scripts/bootstrap.sh" -nt "$stamp" ]; then
    must_write "$venv"
    echo "Installing Einhorn Table and what it needs (once; a minute or two)"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    if [ "$(uname -s)" = Linux ] && [ "$(uname -m)" = aarch64 ] \
        && "$venv/bin/python" -c 'import sys, importlib.metadata as m; sys.exit(not str(m.distribution("pygame").locate_file("")).startswith(sys.prefix))' 2>/dev/null; then
        # pygame-ce replaces pygame here (see pyproject.toml): the two share a folder.
        "$venv/bin/python" -m pip uninstall --quiet --yes pygame
    fi
    "$venv/bin/python" -m pip install --quiet -e "$here${EXTRAS:-}" \
        || offline_help "Einhorn Table's Python packages"
    if [ "$is_pi" = 1 ]; then
        # Raspberry Pi OS Bookworm builds picamera2's JPEG library (simplejpeg) for its
        # own numpy 1; the venv's numpy 2 needs the PyPI build, which the venv then finds
        # first. (Trixie's own is built for numpy 2: there this does no harm.)
        "$venv/bin/python" -m pip install --quiet --no-deps --ignore-installed \
            "simplejpeg>=1.8.1" || offline_help "the JPEG library simplejpeg"
    fi
    touch "$stamp"
fi
