#!/usr/bin/env bash
# Builds storedaemon (or a hosted app's daemon), its workers (effectworker,
# effectworker-network, the app's own) and tcactl in release mode and installs
# them with the systemd units; or removes what it installed. docs/OPERATIONS.md
# and docs/HOSTING.md walk through using it; `scripts/install.sh --help` lists
# the options.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/install.sh [install] [--app NAME [--package DIR] [--worker FILE]...]
                          [--prefix DIR] [--destdir DIR] [--user]
                          [--binaries DIR] [--no-sysusers]
       scripts/install.sh uninstall [--app NAME [--worker FILE]...] [--prefix DIR]
                          [--destdir DIR] [--user] [--force]

install (the default) builds release binaries (swift build -c release) unless
--binaries is given, then installs, for the daemon NAME (storedaemon unless
--app says otherwise):

  PREFIX/bin/NAME, effectworker, effectworker-network, tcactl, tcaweb, each --worker
  PREFIX/lib/systemd/system/NAME.service, NAME.socket, NAME-web.service (tcaweb)
  PREFIX/lib/systemd/user/NAME.service, NAME.socket
  PREFIX/lib/sysusers.d/NAME.conf
  PREFIX/share/doc/NAME/OPERATIONS.md, CLI.md, WEB.md

and, unless staging or --no-sysusers, runs systemd-sysusers to create the
NAME user and group. It never starts or enables anything: it prints the
systemctl commands to run next.

options:
  --app NAME       a hosted app's daemon (docs/HOSTING.md): the executable
                   product NAME of --package, whose name also names its units,
                   user, group, socket and directories; lower-case letters,
                   digits and -, starting with a letter (default storedaemon)
  --package DIR    the Swift package to build NAME in (default: this repository);
                   effectworker, effectworker-network and tcactl are built there
                   too, from its storedaemon dependency
  --worker FILE    an executable of the app's own effect kinds (docs/PROTOCOL.md,
                   "Workers"), installed beside NAME; repeat for each
  --prefix DIR     where to install (default /usr/local; with --user, ~/.local)
  --destdir DIR    stage the files under DIR (for packagers): the files go to
                   DIR/PREFIX/..., the units name PREFIX/bin, and no user is created
  --user           install for the current user only: the binaries under
                   PREFIX and the user units in ${XDG_CONFIG_HOME:-~/.config}/systemd/user;
                   no system units, no sysusers file
  --binaries DIR   install the executables found in DIR instead of building
                   (e.g. .build/release or .build/debug)
  --no-sysusers    do not run systemd-sysusers (the user and group are made elsewhere)
  --force          uninstall even though the units look enabled
  -h, --help       this help

uninstall removes exactly the files install puts, for the same --app,
--worker, --prefix, --destdir and --user; effectworker, effectworker-network
and tcactl stay while another daemon's unit there still runs from the same
bin directory. It keeps the state (/var/lib/NAME or ~/.local/state/NAME) and
the NAME user and group.
EOF
}

die() {
  echo "install.sh: $*" >&2
  exit 2
}

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=install
app=storedaemon
package=""
app_workers=()
prefix=""
destdir=""
user_mode=0
binaries=""
sysusers=1
force=0

while (($#)); do
  case "$1" in
    install | uninstall) mode="$1" ;;
    --app) (($# > 1)) || die "--app needs a name"; app="$2"; shift ;;
    --app=*) app="${1#*=}" ;;
    --package) (($# > 1)) || die "--package needs a directory"; package="$2"; shift ;;
    --package=*) package="${1#*=}" ;;
    --worker) (($# > 1)) || die "--worker needs an executable file"; app_workers+=("$2"); shift ;;
    --worker=*) app_workers+=("${1#*=}") ;;
    --prefix) (($# > 1)) || die "--prefix needs a directory"; prefix="$2"; shift ;;
    --prefix=*) prefix="${1#*=}" ;;
    --destdir) (($# > 1)) || die "--destdir needs a directory"; destdir="$2"; shift ;;
    --destdir=*) destdir="${1#*=}" ;;
    --user) user_mode=1 ;;
    --binaries) (($# > 1)) || die "--binaries needs a directory"; binaries="$2"; shift ;;
    --binaries=*) binaries="${1#*=}" ;;
    --no-sysusers) sysusers=0 ;;
    --force) force=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
  esac
  shift
done

# A path that goes into a unit file: absolute, and nothing systemd would read
# as a specifier, a quote or a word break.
check_unit_path() {
  local what="$1" path="$2"
  [[ "$path" == /* ]] || die "$what must be an absolute path, got '$path'"
  [[ "$path" =~ ^[A-Za-z0-9._/+-]+$ ]] || die "$what may hold only letters, digits and . _ / + -, got '$path'"
}

[[ "$app" =~ ^[a-z][a-z0-9-]{0,63}$ ]] ||
  die "--app takes a daemon's name: lower-case letters, digits and -, starting with a letter, got '$app'"
package="${package:-$repo}"
[[ -f "$package/Package.swift" ]] || die "--package: no Package.swift in '$package'"
package="$(cd "$package" && pwd)"
worker_names=()
for worker in "${app_workers[@]}"; do
  name="$(basename "$worker")"
  case "$name" in
    "$app" | effectworker | effectworker-network | tcactl) die "--worker $worker: its name '$name' is taken by a program install puts" ;;
  esac
  [[ "$name" =~ ^[A-Za-z0-9._+-]+$ ]] || die "--worker $worker: a program's name may hold only letters, digits and . _ + -"
  [[ "$worker" != *[[:space:]]* ]] || die "--worker '$worker': the path may not hold spaces"
  worker_names+=("$name")
done

if ((user_mode)); then
  [[ -n "${HOME:-}" ]] || die "--user needs \$HOME"
  prefix="${prefix:-$HOME/.local}"
  unit_source="$repo/systemd/user"
  unitdir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
  check_unit_path "the user unit directory" "$unitdir"
else
  prefix="${prefix:-/usr/local}"
  unit_source="$repo/systemd/system"
  unitdir="$prefix/lib/systemd/system"
fi
prefix="${prefix%/}"
check_unit_path "--prefix" "${prefix:-/}"
if [[ -n "$destdir" ]]; then
  mkdir -p "$destdir"
  destdir="$(cd "$destdir" && pwd)"
fi

bindir="$prefix/bin"
docdir="$prefix/share/doc/$app"
programs=("$app" effectworker effectworker-network tcactl tcaweb)
# The programs every daemon installed in the same bin directory shares.
shared_programs=(effectworker effectworker-network tcactl tcaweb)
docs=(OPERATIONS.md CLI.md WEB.md)

# Every file install puts, as "kind:source destination mode": a program built
# (bin) or given with --worker (worker), a unit or sysusers file rendered from
# its template (unit: SOURCE is the template, daemon.service.in), or a copy.
# The source is unused by uninstall.
files=()
for program in "${programs[@]}"; do files+=("bin:$program $bindir/$program 0755"); done
for index in "${!app_workers[@]}"; do
  files+=("worker:${app_workers[$index]} $bindir/${worker_names[$index]} 0755")
done
for unit in service socket; do files+=("unit:$unit_source/daemon.$unit.in $unitdir/$app.$unit 0644"); done
if ((!user_mode)); then
  for unit in service socket; do
    files+=("unit:$repo/systemd/user/daemon.$unit.in $prefix/lib/systemd/user/$app.$unit 0644")
  done
  files+=("unit:$repo/systemd/system/web.service.in $unitdir/$app-web.service 0644")
  files+=("unit:$repo/systemd/sysusers.d/daemon.conf.in $prefix/lib/sysusers.d/$app.conf 0644")
fi
for doc in "${docs[@]}"; do files+=("copy:$repo/docs/$doc $docdir/$doc 0644"); done

build() {
  if [[ -n "$binaries" ]]; then
    binaries="$(cd "$binaries" && pwd)" || die "no directory '$binaries'"
  else
    command -v swift >/dev/null ||
      die "swift is not on PATH (under sudo: sudo env \"PATH=\$PATH\" scripts/install.sh ...), or build first and pass --binaries"
    local -a as_user=()
    # Under sudo, build as the person who ran it, so that .build stays theirs.
    if ((EUID == 0)) && [[ -n "${SUDO_USER:-}" && "$SUDO_USER" != root ]] && [[ "$(stat -c %U "$package")" == "$SUDO_USER" ]]; then
      as_user=(sudo -u "$SUDO_USER" env "PATH=$PATH" "HOME=$(getent passwd "$SUDO_USER" | cut -d: -f6)")
    fi
    echo "== building release binaries in $package (swift build -c release)"
    for program in "${programs[@]}"; do
      (cd "$package" && "${as_user[@]}" swift build -c release --product "$program")
    done
    binaries="$(cd "$package" && "${as_user[@]}" swift build -c release --show-bin-path)"
  fi
  for program in "${programs[@]}"; do
    [[ -x "$binaries/$program" ]] || die "no executable $binaries/$program"
  done
  for worker in "${app_workers[@]}"; do
    [[ -f "$worker" && -x "$worker" ]] || die "--worker $worker: not an executable file"
  done
}

# The binaries load the Swift runtime from the toolchain that built them
# (their RUNPATH names it). The system service cannot see home directories
# (ProtectHome=yes), so a toolchain there would keep it from starting.
check_runtime() {
  command -v ldd >/dev/null || return 0
  local program libraries
  for program in "${programs[@]}"; do
    libraries="$(ldd "$binaries/$program" 2>/dev/null || true)"
    if grep -q "not found" <<<"$libraries"; then
      echo "warning: $program cannot find some of its libraries:" >&2
      grep "not found" <<<"$libraries" >&2
    fi
    if ((!user_mode)) && grep -qE "=> /(home|root)/" <<<"$libraries"; then
      echo "warning: $program loads the Swift runtime from a home directory, which the service cannot see" \
        "(ProtectHome=yes); install the toolchain outside /home and /root (e.g. /opt/swift) and build again:" >&2
      grep -E "=> /(home|root)/" <<<"$libraries" | head -3 >&2
    fi
  done
}

render() {
  sed -e "s|@BINDIR@|$bindir|g" -e "s|@DOCDIR@|$docdir|g" -e "s|@NAME@|$app|g" "$1"
}

do_install() {
  build
  check_runtime
  echo "== installing into ${destdir:+$destdir}$prefix"
  local entry kind source target mode
  for entry in "${files[@]}"; do
    read -r source target mode <<<"$entry"
    kind="${source%%:*}"
    source="${source#*:}"
    target="$destdir$target"
    mkdir -p "$(dirname "$target")"
    case "$kind" in
      bin) install -m "$mode" "$binaries/$source" "$target" ;;
      worker) install -m "$mode" "$source" "$target" ;;
      unit)
        [[ -f "$source" ]] || die "no template $source"
        render "$source" >"$target.tmp"
        chmod "$mode" "$target.tmp"
        mv -f "$target.tmp" "$target"
        ;;
      copy) install -m "$mode" "$source" "$target" ;;
    esac
    echo "installed $target"
  done

  # tcactl finds storedaemon by itself; another daemon by its name.
  local tcactl="$bindir/tcactl"
  if [[ "$app" != storedaemon ]]; then tcactl+=" --app $app"; fi
  if ((user_mode)); then
    cat <<EOF
== next, as yourself:
  systemctl --user daemon-reload
  systemctl --user enable --now $app.socket
  $tcactl status
EOF
    return
  fi
  if [[ -z "$destdir" ]] && ((sysusers)); then
    if ((EUID != 0)); then
      echo "note: not root, so the $app user and group were not created; run: sudo systemd-sysusers $prefix/lib/sysusers.d/$app.conf"
    elif command -v systemd-sysusers >/dev/null; then
      systemd-sysusers "$prefix/lib/sysusers.d/$app.conf"
      echo "created (if missing) the $app user and group"
    else
      echo "note: no systemd-sysusers; create a system user and group '$app' yourself" >&2
    fi
  fi
  case "$prefix" in
    /usr | /usr/local) ;;
    *) echo "note: systemd does not look for units in $unitdir; link them: systemctl link $unitdir/$app.service $unitdir/$app.socket" ;;
  esac
  if [[ -n "$destdir" ]]; then return; fi
  cat <<EOF
== next, as root:
  systemctl daemon-reload
  systemctl enable --now $app.socket
  usermod -aG $app NAME      # each person who may use tcactl (they log in again)
  $tcactl status              # finds /run/$app/$app.sock by itself
  # the web client, on 127.0.0.1:8080 for a TLS proxy in front of it: give it
  # --public-origin and --token-file first (docs/WEB.md, "As a service")
  systemctl edit $app-web.service && systemctl enable --now $app-web.service
EOF
}

# The units are enabled if the symbolic links systemctl enable makes exist.
enabled_links() {
  local base
  if ((user_mode)); then base="$unitdir"; else base="/etc/systemd/system"; fi
  compgen -G "$base/*.wants/$app.*" || true
  compgen -G "$base/*.wants/$app-web.service" || true
}

# Whether another daemon's unit in the unit directory runs from this bin
# directory, and so still needs the programs every daemon shares.
shared_programs_in_use() {
  local unit
  for unit in "$destdir$unitdir"/*.service; do
    [[ -f "$unit" && "$unit" != "$destdir$unitdir/$app.service" && "$unit" != "$destdir$unitdir/$app-web.service" ]] ||
      continue
    grep -q "^ExecStart=$bindir/" "$unit" && return 0
  done
  return 1
}

do_uninstall() {
  if [[ -z "$destdir" ]] && ((!force)); then
    local links
    links="$(enabled_links)"
    if [[ -n "$links" ]]; then
      local systemctl="systemctl"
      if ((user_mode)); then systemctl="systemctl --user"; fi
      echo "install.sh: $app is enabled ($(tr '\n' ' ' <<<"$links")); first run:" >&2
      echo "  $systemctl disable --now $app.socket $app.service" >&2
      echo "or pass --force" >&2
      exit 1
    fi
  fi
  local keep_shared=0
  if shared_programs_in_use; then keep_shared=1; fi
  local entry source target mode
  for entry in "${files[@]}"; do
    read -r source target mode <<<"$entry"
    if ((keep_shared)) && [[ " ${shared_programs[*]} " == *" $(basename "$target") "* ]]; then
      echo "kept $destdir$target: another daemon's unit in $unitdir runs from $bindir"
      continue
    fi
    target="$destdir$target"
    if [[ -e "$target" || -L "$target" ]]; then
      rm -f "$target"
      echo "removed $target"
    fi
  done
  rmdir "$destdir$docdir" 2>/dev/null || true
  if ((user_mode)); then
    echo "kept the state in \${XDG_STATE_HOME:-~/.local/state}/$app; run systemctl --user daemon-reload"
  else
    echo "kept the state in /var/lib/$app and the $app user and group; run systemctl daemon-reload"
  fi
}

case "$mode" in
  install) do_install ;;
  uninstall) do_uninstall ;;
esac
