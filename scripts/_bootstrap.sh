# Sourced by scripts/render, scripts/test and scripts/bench: make sure the system packages and the
# project's .venv are in place, cheaply when they already are.
#
# Usage (from a script):  source "$(dirname "$0")/_bootstrap.sh"; ensure_venv "test oracle"
#
# The venv is rebuilt only when pyproject.toml (or the list of extras) changes: a stamp file in
# .venv records the checksum it was built from. With everything in place this costs a few ms.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
SYSTEM_PACKAGES="libcairo2-dev libpango1.0-dev pkg-config espeak-ng"

_say() { printf 'gradreel setup: %s\n' "$*" >&2; }

_as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    _say "need root (or sudo) to run: $*"; exit 1; fi
}

_find_python() {
  local py
  for py in python3.13 python3.12 python3.11 python3; do
    if command -v "$py" >/dev/null 2>&1 &&
       "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$py"; return 0
    fi
  done
  return 1
}

_ensure_system_packages() {
  local missing="" pkg py="$1"
  for pkg in $SYSTEM_PACKAGES; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing="$missing $pkg"
  done
  # Debian's own python needs its venv module and headers (pycairo builds from source).
  if ! "$py" -c 'import ensurepip' 2>/dev/null; then missing="$missing python3-venv"; fi
  if ! "$py" -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null; then
    missing="$missing python3-dev"
  fi
  if [ -n "$missing" ]; then
    command -v apt-get >/dev/null || { _say "missing system packages:$missing (and no apt-get)"; exit 1; }
    _say "installing system packages:$missing"
    _as_root apt-get update -qq
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  fi
}

# ensure_browser: Debian's chromium and its driver, which the browser tests drive (through
# Selenium, pointed at /usr/bin/chromium and /usr/bin/chromedriver: no browser is downloaded).
# Two `command -v` when both are there; apt-get (after an update) only when one is missing.
BROWSER_PACKAGES="chromium chromium-driver"
ensure_browser() {
  command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 && return 0
  command -v apt-get >/dev/null || { _say "no chromium/chromedriver (and no apt-get): the browser tests will be skipped"; return 0; }
  _say "installing $BROWSER_PACKAGES for the browser tests (once; a minute or two)"
  _as_root apt-get update -qq
  _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $BROWSER_PACKAGES >/dev/null
}

# ensure_axe: axe-core, the accessibility checker tests/publish/test_axe.py runs inside each page
# (injected through Selenium), from the npm registry into .cache/axe-core-VERSION/ (gitignored).
# The folder is named by the pinned version, so a new pin installs afresh and a present one costs
# one file check. Without npm the accessibility test skips and says so.
AXE_VERSION="4.14.1"
AXE_DIR="$ROOT/.cache/axe-core-$AXE_VERSION"
ensure_axe() {
  [ -f "$AXE_DIR/node_modules/axe-core/axe.min.js" ] && return 0
  command -v npm >/dev/null 2>&1 || { _say "no npm: the accessibility test (axe-core) will be skipped"; return 0; }
  _say "installing axe-core $AXE_VERSION for the accessibility test (once)"
  npm install --prefix "$AXE_DIR" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
    --loglevel=error "axe-core@$AXE_VERSION" >/dev/null ||
    _say "npm install axe-core@$AXE_VERSION failed: the accessibility test will be skipped"
}

# ensure_venv "EXTRAS": the extras this script needs, separated by spaces, e.g. "test oracle".
# The stamp holds two lines: the checksum of pyproject.toml and the extras installed from it.
ensure_venv() {
  local need="$1" stamp="$VENV/.gradreel-stamp" sum have="" have_sum="" extra missing=""
  sum="$(cksum < "$ROOT/pyproject.toml")"
  if [ -f "$stamp" ]; then
    { read -r have_sum; read -r have; } < "$stamp" || true
  fi
  for extra in $need; do
    case " $have " in *" $extra "*) ;; *) missing="$missing $extra" ;; esac
  done
  if [ -x "$VENV/bin/python" ] && [ "$have_sum" = "$sum" ] && [ -z "$missing" ]; then
    return 0
  fi
  local py all
  py="$(_find_python)" || { _say "need Python 3.11 or newer"; exit 1; }
  _ensure_system_packages "$py"
  if [ ! -x "$VENV/bin/python" ]; then
    _say "creating $VENV"
    "$py" -m venv "$VENV"
  fi
  all="$(printf '%s\n' $have $need | sort -u | tr '\n' ' ' | sed 's/ $//')"
  _say "installing gradreel into .venv (extras: ${all:-none}); the first time takes a few minutes"
  local spec="$ROOT"
  [ -n "$all" ] && spec="$ROOT[$(echo "$all" | tr ' ' ',')]"
  # pip's notes about this machine's local package mirrors are noise to an author; errors are not
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$spec" 2>&1 |
    { grep -v 'is ignored: it is neither a file nor a directory' || true; } >&2
  [ "${PIPESTATUS[0]}" = 0 ] || { _say "pip install failed (see above)"; exit 1; }
  printf '%s\n%s\n' "$sum" "$all" > "$stamp.tmp" && mv "$stamp.tmp" "$stamp"
}
