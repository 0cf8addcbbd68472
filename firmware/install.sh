#!/usr/bin/env bash
# Turn a stock Raspberry Pi OS Bookworm (Pi 4 or Pi 5) into the Towers Companion appliance.
#
#   sudo firmware/install.sh [options]        run from a checkout of the repository
#   firmware/install.sh --dry-run [options]   print what it would do, change nothing
#
# Safe to run again, e.g. after `git pull`: every step first checks whether it is already
# done and does only what is missing. firmware/README.md describes each step.
set -euo pipefail

readonly SERVICE=towers-companion
readonly APT_PACKAGES=(python3-venv python3-picamera2 python3-lgpio python3-gpiozero avahi-daemon rsync)
# Debian's Python: the venv must see the apt-installed picamera2, libcamera and lgpio.
readonly SYSTEM_PYTHON=/usr/bin/python3
readonly UNIT_PATH=/etc/systemd/system/$SERVICE.service
readonly AVAHI_PATH=/etc/avahi/services/$SERVICE.service
# What is not copied from the checkout into PREFIX/src (VCS data, local venvs, caches, builds).
readonly RSYNC_OPTIONS=(
  --archive --delete --no-owner --no-group --chmod=go-w
  --exclude=/.git/ --exclude=/.venv/ --exclude=/.venv-train/ --exclude=/data/ --exclude=/build/
  --exclude=__pycache__/ '--exclude=*.egg-info/' --exclude=/.pytest_cache/ --exclude=/.mypy_cache/
  --exclude=/.ruff_cache/ --exclude=/.hypothesis/
)

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname -- "$SCRIPT_DIR")

USER_NAME=towers
PREFIX=/opt/towers-companion
DATA_DIR=/var/lib/towers-companion
PORT=8000
MODE=install # install | dry-run | print-unit | print-avahi

SOURCE_CHANGED=0  # the code in the venv changed: a running service must restart
UNIT_CHANGED=0    # the unit file changed
STARTED=0         # the service was started or restarted in this run
BUILD_DIR=""      # temporary copy of the source that pip builds from (removed on exit)

usage() {
  cat <<EOF
Usage: sudo firmware/install.sh [options]

Installs Towers Companion as a systemd service on Raspberry Pi OS Bookworm.
Run it from a checkout of the repository. Running it again only does what is missing.

Options:
  --user NAME       service user (default: towers); created as a system user without a
                    login shell, in the groups gpio, video and (if it exists) render
  --prefix DIR      install directory: DIR/src (a copy of the repo), DIR/venv (default:
                    /opt/towers-companion)
  --data-dir DIR    writable data directory: database, settings (default:
                    /var/lib/towers-companion)
  --port N          HTTP port of the web page (default: 8000)
  --dry-run         print every action it would take and change nothing (root not needed)
  --print-unit      print the systemd unit rendered with these options and exit
  --print-avahi     print the avahi service file rendered with these options and exit
  -h, --help        show this help and exit
EOF
}

die() {
  printf 'install.sh: error: %s\n' "$*" >&2
  exit 1
}

usage_error() {
  printf 'install.sh: %s\n\n' "$*" >&2
  usage >&2
  exit 2
}

step() { printf '\n==> %s\n' "$*"; }
ok() { printf '    already done: %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf '    WARNING: %s\n' "$*" >&2; }

# quote WORD...: the words as one shell-readable line (single quotes only where needed).
quote() {
  local word words=()
  for word in "$@"; do
    if [[ $word =~ ^[A-Za-z0-9_./:=,@+%-]+$ ]]; then
      words+=("$word")
    else
      words+=("'${word//\'/\'\\\'\'}'")
    fi
  done
  printf '%s' "${words[*]}"
}

# run CMD [ARG...]: a command that changes the system. A dry run only prints it.
run() {
  if [[ $MODE == dry-run ]]; then
    printf '    would run: %s\n' "$(quote "$@")"
  else
    printf '    + %s\n' "$(quote "$@")"
    "$@"
  fi
}

cleanup() {
  if [[ -n $BUILD_DIR ]]; then
    rm -rf -- "$BUILD_DIR"
  fi
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------
# Options

parse_args() {
  while (($# > 0)); do
    case $1 in
      --user | --prefix | --data-dir | --port)
        (($# >= 2)) || usage_error "option $1 needs a value"
        set_option "$1" "$2"
        shift 2
        ;;
      --user=* | --prefix=* | --data-dir=* | --port=*)
        set_option "${1%%=*}" "${1#*=}"
        shift
        ;;
      --dry-run) MODE=dry-run; shift ;;
      --print-unit) MODE=print-unit; shift ;;
      --print-avahi) MODE=print-avahi; shift ;;
      -h | --help)
        usage
        exit 0
        ;;
      *) usage_error "unknown option: $1" ;;
    esac
  done
}

set_option() {
  case $1 in
    --user) USER_NAME=$2 ;;
    --prefix) PREFIX=$2 ;;
    --data-dir) DATA_DIR=$2 ;;
    --port) PORT=$2 ;;
  esac
}

# A path that goes into the unit file and into rm/chown commands: absolute, plain characters.
check_path() {
  local what=$1 path=$2
  [[ $path =~ ^/[A-Za-z0-9._/+-]*$ ]] \
    || usage_error "$what must be an absolute path of letters, digits and ._/+- (got '$path')"
  [[ /$path/ != */../* && /$path/ != */./* ]] || usage_error "$what must not contain . or .. (got '$path')"
  [[ $path != / ]] || usage_error "$what must not be /"
}

validate_options() {
  [[ $USER_NAME =~ ^[a-z_][a-z0-9_-]{0,31}$ ]] \
    || usage_error "--user must be a lower-case user name (got '$USER_NAME')"
  if ! [[ $PORT =~ ^[0-9]{1,5}$ ]] || ((10#$PORT < 1 || 10#$PORT > 65535)); then
    usage_error "--port must be a number from 1 to 65535 (got '$PORT')"
  fi
  PORT=$((10#$PORT))
  PREFIX=${PREFIX%/}
  DATA_DIR=${DATA_DIR%/}
  check_path --prefix "$PREFIX"
  check_path --data-dir "$DATA_DIR"
  [[ $PREFIX != "$DATA_DIR" ]] || usage_error "--prefix and --data-dir must differ"
  [[ $DATA_DIR != "$PREFIX/src" && $DATA_DIR != "$PREFIX/src/"* && $DATA_DIR != "$PREFIX/venv"* ]] \
    || usage_error "--data-dir must not be inside $PREFIX/src or $PREFIX/venv (they are replaced on reinstall)"
}

# ---------------------------------------------------------------------------------------------
# Rendering the templates

service_group() {
  if id -u "$USER_NAME" >/dev/null 2>&1; then
    id -gn "$USER_NAME"
  else
    printf '%s\n' "$USER_NAME" # useradd --user-group creates it
  fi
}

# substitute TEMPLATE_FILE: the template with every @PLACEHOLDER@ replaced.
substitute() {
  local text group
  text=$(<"$1")
  group=$(service_group)
  text=${text//@USER@/$USER_NAME}
  text=${text//@GROUP@/$group}
  text=${text//@PREFIX@/$PREFIX}
  text=${text//@DATA_DIR@/$DATA_DIR}
  text=${text//@PORT@/$PORT}
  if [[ $text =~ @[A-Z_]+@ ]]; then
    die "$1: unknown placeholder ${BASH_REMATCH[0]}"
  fi
  printf '%s\n' "$text"
}

render_unit() { substitute "$SCRIPT_DIR/$SERVICE.service"; }
render_avahi() { substitute "$SCRIPT_DIR/$SERVICE-avahi.service"; }

# ---------------------------------------------------------------------------------------------
# Checks (no side effects; used in conditions) and file writing

package_installed() {
  local status
  # shellcheck disable=SC2016  # ${db:Status-Status} is dpkg-query's format, not a shell expansion
  status=$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null) || return 1
  [[ $status == installed ]]
}

# file_is_current CONTENT DEST MODE: DEST exists with exactly CONTENT (plus a final newline).
file_is_current() {
  [[ -f $2 ]] && [[ $(stat -c %a -- "$2") == "$3" ]] && printf '%s\n' "$1" | cmp -s - "$2"
}

# write_file CONTENT DEST MODE: replace DEST atomically (owned by root).
write_file() {
  local content=$1 dest=$2 mode=$3 tmp
  if [[ $MODE == dry-run ]]; then
    note "would write: $dest (mode $mode)"
    return
  fi
  note "+ write $dest (mode $mode)"
  tmp=$(mktemp -- "$dest.XXXXXX")
  printf '%s\n' "$content" >"$tmp"
  chmod -- "$mode" "$tmp"
  mv -f -- "$tmp" "$dest"
}

# A fingerprint of the copied source: paths, sizes and modification times (rsync keeps them).
source_fingerprint() {
  (cd -- "$PREFIX/src" && find . \( -type f -o -type l \) -printf '%P\t%s\t%T@\n' | LC_ALL=C sort | sha256sum)
}

# ---------------------------------------------------------------------------------------------
# Install steps: each checks whether it is already done.

check_prerequisites() {
  step "Prerequisites"
  [[ -f $REPO_DIR/pyproject.toml && -f $SCRIPT_DIR/$SERVICE.service ]] \
    || die "run this script from a checkout of the repository ($REPO_DIR has no pyproject.toml)"
  if [[ $MODE != dry-run && $EUID -ne 0 ]]; then
    die "must run as root: sudo $0 (or use --dry-run to see what it would do)"
  fi
  local codename=""
  if [[ -r /etc/os-release ]]; then
    # shellcheck source=/dev/null
    codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
  fi
  if [[ $codename != bookworm ]]; then
    warn "written for Raspberry Pi OS Bookworm; this system is '${codename:-unknown}'"
  fi
  local python_problem=""
  if [[ ! -x $SYSTEM_PYTHON ]]; then
    python_problem="$SYSTEM_PYTHON not found (Raspberry Pi OS always has it)"
  elif ! "$SYSTEM_PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    python_problem="$SYSTEM_PYTHON is older than Python 3.11"
  fi
  if [[ -n $python_problem && $MODE == dry-run ]]; then
    warn "$python_problem: a real run would stop here"
  elif [[ -n $python_problem ]]; then
    die "$python_problem"
  fi
  note "source: $REPO_DIR"
  note "user: $USER_NAME, prefix: $PREFIX, data: $DATA_DIR, port: $PORT"
}

install_apt_packages() {
  step "apt packages: ${APT_PACKAGES[*]}"
  local package missing=()
  for package in "${APT_PACKAGES[@]}"; do
    package_installed "$package" || missing+=("$package")
  done
  if ((${#missing[@]} == 0)); then
    ok "all installed"
    return
  fi
  note "missing: ${missing[*]}"
  run apt-get update
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

create_service_user() {
  step "Service user $USER_NAME (groups gpio, video, render if present; no login shell)"
  if [[ $USER_NAME == root ]]; then
    ok "root needs no groups"
    return
  fi
  local groups=(gpio video) group missing=()
  for group in gpio video; do
    if ! getent group "$group" >/dev/null; then
      warn "group $group does not exist (Raspberry Pi OS has it; its udev rules give it the devices)"
      run groupadd --system "$group"
    fi
  done
  if getent group render >/dev/null; then
    groups+=(render)
  fi
  if id -u "$USER_NAME" >/dev/null 2>&1; then
    local current
    current=" $(id -nG "$USER_NAME") "
    for group in "${groups[@]}"; do
      [[ $current == *" $group "* ]] || missing+=("$group")
    done
    if ((${#missing[@]} == 0)); then
      ok "user $USER_NAME exists and is in: ${groups[*]}"
      return
    fi
    run usermod --append --groups "$(IFS=,; printf '%s' "${missing[*]}")" "$USER_NAME"
  else
    local primary=(--user-group)
    if getent group "$USER_NAME" >/dev/null; then
      primary=(--gid "$USER_NAME")
    fi
    run useradd --system "${primary[@]}" --no-create-home --home-dir "$DATA_DIR" \
      --shell /usr/sbin/nologin --comment "Towers Companion" \
      --groups "$(IFS=,; printf '%s' "${groups[*]}")" "$USER_NAME"
  fi
}

create_data_dir() {
  step "Data directory $DATA_DIR (writable, owned by $USER_NAME)"
  local group owner
  group=$(service_group)
  if [[ -d $DATA_DIR ]]; then
    owner=$(stat -c %U:%G -- "$DATA_DIR")
    if [[ $owner == "$USER_NAME:$group" ]]; then
      ok "exists, owned by $owner"
    else
      note "owned by $owner"
      run chown -R -- "$USER_NAME:$group" "$DATA_DIR"
    fi
  else
    run install -d -m 0750 -o "$USER_NAME" -g "$group" -- "$DATA_DIR"
  fi
  # With raspi-config's overlay file system, writes to the root file system vanish at reboot.
  local probe=$DATA_DIR
  while [[ ! -e $probe ]]; do probe=$(dirname -- "$probe"); done
  if [[ $(findmnt -n -o FSTYPE --target "$probe" 2>/dev/null || true) == overlay ]]; then
    warn "$DATA_DIR is on an overlay file system: its contents are lost at reboot."
    warn "Mount writable storage there (firmware/boot/README.md)."
  fi
}

sync_source() {
  local dest=$PREFIX/src
  step "Copy the repository to $dest"
  if [[ -d $dest && $REPO_DIR -ef $dest ]]; then
    ok "running from the installed copy itself"
    return
  fi
  if [[ ! -d $PREFIX ]]; then
    run install -d -m 0755 -- "$PREFIX"
  fi
  if [[ -d $dest ]] && command -v rsync >/dev/null; then
    local changes files
    changes=$(rsync --dry-run --itemize-changes "${RSYNC_OPTIONS[@]}" "$REPO_DIR/" "$dest/")
    if [[ -z $changes ]]; then
      ok "$dest matches the checkout"
      return
    fi
    # Lines starting ".d" are directory times only; anything else is a file added, changed
    # or deleted.
    files=$(grep -cv '^\.d' <<<"$changes" || true)
    note "$files file(s) to add, change or delete"
    if ((files > 0)); then
      SOURCE_CHANGED=1
    fi
  else
    SOURCE_CHANGED=1
  fi
  run rsync "${RSYNC_OPTIONS[@]}" "$REPO_DIR/" "$dest/"
}

create_venv() {
  local venv=$PREFIX/venv
  step "Virtual environment $venv (--system-site-packages: picamera2 and lgpio come from apt)"
  if [[ -x $venv/bin/python ]] && "$venv/bin/python" -c 'import sys' 2>/dev/null \
    && grep -qx 'include-system-site-packages = true' "$venv/pyvenv.cfg" 2>/dev/null; then
    ok "exists, with system site packages"
    return
  fi
  if [[ -e $venv ]]; then
    note "$venv is broken or lacks system site packages: recreating it"
    run rm -rf -- "$venv"
  fi
  run "$SYSTEM_PYTHON" -m venv --system-site-packages "$venv"
  SOURCE_CHANGED=1
}

install_project() {
  local venv=$PREFIX/venv stamp=$PREFIX/.installed-source fingerprint=""
  step "Install the project into the venv (pip, not editable)"
  if [[ -d $PREFIX/src ]]; then
    fingerprint=$(source_fingerprint)
  fi
  if ((SOURCE_CHANGED == 0)) && [[ -x $venv/bin/companion && -f $stamp ]] \
    && [[ $(<"$stamp") == "$fingerprint" ]]; then
    ok "the venv has the current source"
    return
  fi
  # pip builds in the source tree (build/, *.egg-info); build from a throwaway copy so that
  # PREFIX/src stays an exact copy of the checkout and no stale build output is reused.
  if [[ $MODE == dry-run ]]; then
    note "would copy $PREFIX/src to a temporary directory and run there:"
    run "$venv/bin/python" -m pip install --no-cache-dir --disable-pip-version-check \
      --root-user-action=ignore "<temporary copy of $PREFIX/src>"
    return
  fi
  BUILD_DIR=$(mktemp -d)
  cp -a -- "$PREFIX/src" "$BUILD_DIR/src"
  run "$venv/bin/python" -m pip install --no-cache-dir --disable-pip-version-check \
    --root-user-action=ignore "$BUILD_DIR/src"
  rm -rf -- "$BUILD_DIR"
  BUILD_DIR=""
  printf '%s\n' "$(source_fingerprint)" >"$stamp"
  SOURCE_CHANGED=1
}

# picamera2 and its JPEG encoder (simplejpeg) come from apt, built against Debian's numpy 1.x.
# If pip put numpy 2.x into the venv, importing picamera2 fails with "numpy.dtype size changed";
# a simplejpeg wheel from PyPI (built for numpy 2) in the venv is the known fix.
check_camera_stack() {
  local venv=$PREFIX/venv error
  step "Check that picamera2 and lgpio import in the venv"
  if [[ $MODE == dry-run && ! -x $venv/bin/python ]]; then
    note "would check: $venv/bin/python -c 'import picamera2, lgpio, gpiozero'"
    return
  fi
  if error=$("$venv/bin/python" -c 'import picamera2, lgpio, gpiozero' 2>&1); then
    ok "picamera2, lgpio and gpiozero import"
    return
  fi
  if [[ $error == *"size changed"* || $error == *"binary incompatib"* ]]; then
    note "numpy in the venv does not match the apt-built simplejpeg; installing simplejpeg from PyPI"
    run "$venv/bin/python" -m pip install --no-cache-dir --disable-pip-version-check \
      --root-user-action=ignore simplejpeg
    if [[ $MODE == dry-run ]] || error=$("$venv/bin/python" -c 'import picamera2, lgpio, gpiozero' 2>&1); then
      return
    fi
  fi
  warn "importing picamera2/lgpio/gpiozero in $venv fails; the Pi camera or buttons may not work:"
  printf '%s\n' "$error" | tail -n 3 | sed 's/^/        /' >&2
}

install_unit() {
  step "systemd unit $UNIT_PATH"
  local unit
  unit=$(render_unit)
  if file_is_current "$unit" "$UNIT_PATH" 644; then
    ok "up to date"
    return
  fi
  write_file "$unit" "$UNIT_PATH" 644
  run systemctl daemon-reload
  UNIT_CHANGED=1
}

enable_service() {
  step "Enable and start $SERVICE"
  if ! systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
    run systemctl enable --now "$SERVICE"
  elif ! systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
    run systemctl start "$SERVICE"
  elif ((SOURCE_CHANGED || UNIT_CHANGED)); then
    note "code or unit changed"
    run systemctl restart "$SERVICE"
  else
    ok "enabled and running the current code"
    return
  fi
  STARTED=1
}

install_avahi_service() {
  step "mDNS announcement $AVAHI_PATH (_http._tcp, port $PORT)"
  if ! systemctl is-enabled --quiet avahi-daemon 2>/dev/null; then
    run systemctl enable --now avahi-daemon
  fi
  local xml
  xml=$(render_avahi)
  if file_is_current "$xml" "$AVAHI_PATH" 644; then
    ok "up to date"
    return
  fi
  write_file "$xml" "$AVAHI_PATH" 644
  # avahi-daemon notices new service files by itself; a reload makes it immediate.
  if systemctl is-active --quiet avahi-daemon 2>/dev/null; then
    run systemctl reload avahi-daemon
  fi
}

print_result() {
  local host
  host=$(uname -n)
  step "Done"
  if [[ $MODE == dry-run ]]; then
    note "dry run: nothing was changed"
  elif ((STARTED)); then
    # A service that fails at start-up is restarted every 2 s and is not "active" meanwhile.
    sleep 3
    if ! systemctl is-active --quiet "$SERVICE"; then
      warn "$SERVICE is not running; see: journalctl -u $SERVICE -b"
    fi
  fi
  note "Open http://$host.local:$PORT on a phone or laptop on the same network."
  note "Status: systemctl status $SERVICE    Log: journalctl -u $SERVICE -f"
}

main() {
  parse_args "$@"
  validate_options
  case $MODE in
    print-unit)
      render_unit
      return
      ;;
    print-avahi)
      render_avahi
      return
      ;;
  esac
  if [[ $MODE == dry-run ]]; then
    printf 'Dry run: printing the actions, changing nothing.\n'
  fi
  check_prerequisites
  install_apt_packages
  create_service_user
  create_data_dir
  sync_source
  create_venv
  install_project
  check_camera_stack
  install_unit
  enable_service
  install_avahi_service
  print_result
}

main "$@"
