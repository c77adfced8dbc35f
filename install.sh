#!/bin/sh
# Installs `agents`, the one-file executable of a release (no Node needed), for this machine:
#
#   curl -fsSL https://github.com/OWNER/REPO/releases/latest/download/install.sh | sh
#
# It downloads agents-<os>-<arch>.tar.gz and SHA256SUMS from the release, checks the archive's sum, and
# puts `agents` into $AGENTS_INSTALL_DIR (default ~/.local/bin), replacing one already there only once the
# new one is checked and runs. A failure of any step changes nothing and exits non-zero.
#   AGENTS_VERSION      a version to install (0.2.0 or v0.2.0); default the latest release
#   AGENTS_INSTALL_DIR  where to put agents; default ~/.local/bin
#   AGENTS_RELEASE_URL  the releases to download from, laid out as GitHub's are ($URL/latest/download/FILE,
#                       $URL/download/vVERSION/FILE); default https://github.com/OWNER/REPO/releases
# POSIX sh (dash, busybox ash, bash, zsh): curl or wget, tar, gzip, and sha256sum or shasum.
# Everything is in functions called on the last line, so a download cut short runs nothing.
set -eu

# The release workflow writes the repository here in the copy it attaches to a release.
REPOSITORY='OWNER/REPO'

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

# download URL FILE: fails the install, naming the URL, unless the whole file arrived.
download() {
  if command -v curl >/dev/null 2>&1; then
    curl --fail --silent --show-error --location --retry 2 --output "$2" "$1" ||
      fail "could not download $1"
  elif command -v wget >/dev/null 2>&1; then
    wget --quiet --tries=3 --output-document="$2" "$1" || fail "could not download $1"
  else
    fail "needs curl or wget to download agents"
  fi
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
  base="${AGENTS_RELEASE_URL:-https://github.com/$REPOSITORY/releases}"
  base="${base%/}"
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
  download "$from/SHA256SUMS" "$tmp/SHA256SUMS"
  download "$from/$archive" "$tmp/$archive"
  expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")
  [ -n "$expected" ] || fail "SHA256SUMS of the release lists no $archive"
  actual=$(sha256 "$tmp/$archive")
  if [ "$actual" != "$expected" ]; then
    fail "the checksum of $archive does not match the release's SHA256SUMS (expected $expected, got $actual): nothing was installed" \
      "download again; if it still differs, the file was changed on its way (a proxy or mirror) and should not be run"
  fi

  tar -xzf "$tmp/$archive" -C "$tmp" || fail "could not unpack $archive"
  new="$tmp/$name/agents"
  [ -f "$new" ] || fail "$archive holds no $name/agents"
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
