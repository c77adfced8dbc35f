#!/bin/sh
# Installs `agents`, the one-file executable of a release (no Node needed), for this machine:
#
#   curl -fsSL https://github.com/$REPOSITORY/releases/latest/download/install.sh | sh
#
# It downloads agents-<os>-<arch>.tar.gz and SHA256SUMS from the release, checks the archive's sum, and
# puts `agents` into $AGENTS_INSTALL_DIR (default ~/.local/bin), replacing one already there only once the
# new one is checked and runs. A failure of any step changes nothing and exits non-zero.
# The executable is the whole install: it carries the system keychain's native addon for its platform, and
# writes it on first use to the user's cache (~/.cache/agents on Linux; docs/install.md), so nothing else
# is downloaded or put beside it.
#   AGENTS_VERSION           a version to install (0.2.0 or v0.2.0); default the latest release
#   AGENTS_INSTALL_DIR       where to put agents; default ~/.local/bin
#   AGENTS_RELEASE_URL       the releases to download from, laid out as GitHub's are ($URL/latest/download/FILE,
#                            $URL/download/vVERSION/FILE); default https://github.com/$REPOSITORY/releases
#   AGENTS_DOWNLOAD_TIMEOUT  the seconds each download may take in all; default 600 (30 to connect)
# POSIX sh (dash, busybox ash, bash, zsh): curl or wget, tar, gzip, and sha256sum or shasum.
# Everything is in functions called on the last line, so a download cut short runs nothing.
set -eu

# The GitHub repository whose releases these are, as package.json's `repository` names it
# (test/unit/release-files.test.ts holds the two equal); empty while it names none, and then only
# AGENTS_RELEASE_URL says where to download from.
REPOSITORY=''

# The most bytes a download may have: SHA256SUMS is a line per archive; an archive is about 50 MB, and this
# leaves it room to grow. Whatever a server sends beyond is never written: the temporary folder stays small.
SUMS_MAX=65536
ARCHIVE_MAX=536870912

fail() {
  printf 'agents install: error: %s\n' "$1" >&2
  [ $# -lt 2 ] || printf 'agents install: hint: %s\n' "$2" >&2
  exit 1
}

say() {
  printf 'agents install: %s\n' "$1" >&2
}

# The release's name for this machine: linux-x64, linux-arm64, darwin-x64, darwin-arm64.
target() {
  os=$(uname -s)
  arch=$(uname -m)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      fail "this script installs on Linux and macOS; on Windows download agents-windows-x64.zip from the release" \
        "or install the npm package: npm install -g agents-cli" ;;
    *) fail "no build of agents for $os" "install the npm package where Node 22 or later runs: npm install -g agents-cli" ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no build of agents for $os on $arch" "install the npm package where Node 22 or later runs: npm install -g agents-cli" ;;
  esac
  # A shell under Rosetta 2 on an Apple silicon Mac says x86_64: the arm64 build is the native one.
  if [ "$os-$arch" = darwin-x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  # The builds link against glibc, as Node's own do: Alpine's musl cannot run them.
  if [ "$os" = linux ] && { ls /lib/ld-musl-* >/dev/null 2>&1 || ldd --version 2>&1 | grep -qi musl; }; then
    fail "no build of agents for Linux with musl libc (Alpine)" "install the npm package there: apk add nodejs npm && npm install -g agents-cli"
  fi
  echo "$os-$arch"
}

# bounded COMMAND...: runs COMMAND, ended after $timeout seconds with curl's exit code for a time-out (28):
# wget has no bound on a whole download, only on each wait for the server.
bounded() {
  "$@" &
  pid=$!
  (
    n=0
    while kill -0 "$pid" 2>/dev/null; do
      if [ "$n" -ge "$timeout" ]; then
        kill "$pid" 2>/dev/null
        exit 0
      fi
      sleep 1
      n=$((n + 1))
    done
  ) </dev/null >/dev/null 2>&1 &
  dog=$!
  rc=0
  wait "$pid" || rc=$?
  kill "$dog" 2>/dev/null || true
  [ "$rc" -ne 143 ] || rc=28
  return "$rc"
}

# fetch URL MAX: the file at URL on stdout, in $timeout seconds at most (a server that never answers, or
# trickles, fails it), and not started when the server says up front that it is larger than MAX bytes.
fetch() {
  if command -v curl >/dev/null 2>&1; then
    # --retry-max-time: no retry after a time-out, so that the whole stays within $timeout.
    curl --fail --silent --show-error --location --retry 2 --connect-timeout "$connect" \
      --max-time "$timeout" --retry-max-time "$timeout" --max-filesize "$2" "$1"
  else
    bounded wget --quiet --tries=3 --timeout="$connect" --output-document=- "$1"
  fi
}

# download URL FILE MAX: fails the install, naming the URL, unless the whole file arrived, in time and in
# MAX bytes at most. head stops the copy after MAX bytes (curl's --max-filesize stops one only when its
# size is known up front, before curl 8.4), so a server that never stops sending fills no disk.
download() {
  command -v curl >/dev/null 2>&1 || command -v wget >/dev/null 2>&1 || fail "needs curl or wget to download agents"
  rm -f "$2.failed"
  { fetch "$1" "$3" 2>"$2.err" || echo "$?" >"$2.failed"; } | head -c "$(($3 + 1))" >"$2"
  if [ "$(($(wc -c <"$2")))" -gt "$3" ] || [ "$(cat "$2.failed" 2>/dev/null)" = 63 ]; then
    fail "$1 is larger than $3 bytes, which no release's file is: nothing was installed" \
      "is $base the address of the releases? AGENTS_RELEASE_URL sets it"
  fi
  [ -e "$2.failed" ] || return 0
  if [ "$(cat "$2.failed")" = 28 ]; then
    fail "could not download $1 within $timeout s: nothing was installed" \
      "on a slow link give each download longer: AGENTS_DOWNLOAD_TIMEOUT=SECONDS (now $timeout)"
  fi
  why=$(sed -n '$p' "$2.err")
  fail "could not download $1${why:+ ($why)}"
}

# sha256 FILE: its SHA-256, in hex.
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    fail "needs sha256sum or shasum to check the download (nothing is installed unchecked)"
  fi
}

main() {
  name="agents-$(target)"
  archive="$name.tar.gz"
  if [ -n "${AGENTS_RELEASE_URL:-}" ]; then
    base="$AGENTS_RELEASE_URL"
  elif [ -n "$REPOSITORY" ]; then
    base="https://github.com/$REPOSITORY/releases"
  else
    fail "no release address is configured: this install.sh names no repository to download from" \
      "set AGENTS_RELEASE_URL to the releases to install from, laid out as GitHub's (https://github.com/<owner>/<name>/releases): curl -fsSL …/install.sh | AGENTS_RELEASE_URL=… sh"
  fi
  base="${base%/}"
  timeout="${AGENTS_DOWNLOAD_TIMEOUT:-600}"
  case "$timeout" in
    '' | *[!0-9]*) fail "AGENTS_DOWNLOAD_TIMEOUT is $timeout: give a whole number of seconds, such as 600" ;;
  esac
  [ "$timeout" -gt 0 ] || fail "AGENTS_DOWNLOAD_TIMEOUT is $timeout: give a whole number of seconds, such as 600"
  connect=30
  [ "$timeout" -ge "$connect" ] || connect="$timeout"
  version="${AGENTS_VERSION:-latest}"
  case "$version" in
    latest) from="$base/latest/download" ;;
    v*) from="$base/download/$version" ;;
    *) from="$base/download/v$version" ;;
  esac
  dir="${AGENTS_INSTALL_DIR:-${HOME:?HOME is not set: set AGENTS_INSTALL_DIR}/.local/bin}"

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t agents-install)
  trap 'rm -rf "$tmp"' EXIT
  trap 'rm -rf "$tmp"; exit 130' INT
  trap 'rm -rf "$tmp"; exit 143' TERM

  say "downloading $from/$archive"
  download "$from/SHA256SUMS" "$tmp/SHA256SUMS" "$SUMS_MAX"
  download "$from/$archive" "$tmp/$archive" "$ARCHIVE_MAX"
  expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")
  [ -n "$expected" ] || fail "SHA256SUMS of the release lists no $archive"
  actual=$(sha256 "$tmp/$archive")
  if [ "$actual" != "$expected" ]; then
    fail "the checksum of $archive does not match the release's SHA256SUMS (expected $expected, got $actual): nothing was installed" \
      "download again; if it still differs, the file was changed on its way (a proxy or mirror) and should not be run"
  fi

  mkdir "$tmp/unpacked"
  tar -xzf "$tmp/$archive" -C "$tmp/unpacked" || fail "could not unpack $archive"
  rm -f "$tmp/$archive"
  # The sum vouches for the archive, not for what it holds: a link in it (to ~/.ssh/id_rsa, say) must not
  # be followed by chmod, a run or cp. Only a regular file is taken, and only a copy of our own is touched.
  unpacked="$tmp/unpacked/$name/agents"
  if [ -L "$tmp/unpacked/$name" ] || [ -L "$unpacked" ] || [ ! -f "$unpacked" ]; then
    fail "$archive holds no $name/agents as a regular file: nothing was installed" \
      "the release is not as this script knows them; install the npm package instead: npm install -g agents-cli"
  fi
  new="$tmp/agents"
  cp "$unpacked" "$new" || fail "could not copy $name/agents out of $archive: nothing was installed"
  rm -rf "$tmp/unpacked"
  chmod 755 "$new"
  installed=$("$new" --version 2>/dev/null) || fail "the downloaded agents does not run on this machine: nothing was installed"

  mkdir -p "$dir" || fail "could not create $dir" "set AGENTS_INSTALL_DIR to a directory you can write"
  # Copied beside the old one, then renamed over it: a run of the old one, or a full disk, never sees half.
  cp "$new" "$dir/.agents.new.$$" || { rm -f "$dir/.agents.new.$$"; fail "could not write to $dir" "set AGENTS_INSTALL_DIR to a directory you can write"; }
  mv -f "$dir/.agents.new.$$" "$dir/agents" || { rm -f "$dir/.agents.new.$$"; fail "could not replace $dir/agents"; }

  say "installed agents $installed to $dir/agents"
  case ":$PATH:" in
    *":$dir:"*)
      found=$(command -v agents 2>/dev/null || true)
      if [ -n "$found" ] && [ "$found" != "$dir/agents" ]; then
        say "note: $found comes first on your PATH and is another agents; put $dir before it, or run $dir/agents"
      fi
      ;;
    *)
      say "$dir is not on your PATH. Add it, e.g. in ~/.profile (or your shell's startup file):"
      say "  export PATH=\"$dir:\$PATH\""
      ;;
  esac
  say "run: agents --help"
}

main "$@"
