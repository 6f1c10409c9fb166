#!/bin/sh
# Runs the keychain tests (test/keychain/**) against a REAL Secret Service: a private D-Bus
# session with gnome-keyring unlocked, its files in a fresh temp dir that is removed afterwards.
# Needs: dbus-run-session, gnome-keyring-daemon, secret-tool
#   (Debian/Ubuntu: apt-get install -y gnome-keyring dbus-x11 libsecret-tools).
# Exit status: vitest's (0 = all passed, non-zero = a failure); 2 if the tools are missing.
set -eu
cd "$(dirname "$0")/.."
for tool in dbus-run-session gnome-keyring-daemon secret-tool; do
  command -v "$tool" >/dev/null 2>&1 || { echo "test-keychain: $tool is not installed" >&2; exit 2; }
done
tmp="$(mktemp -d "${TMPDIR:-/tmp}/einvoice-keychain.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/data" "$tmp/run"
chmod 700 "$tmp/run"
status=0
XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/run" dbus-run-session -- sh -c '
  printf %s einvoice-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec npx vitest run --config vitest.keychain.config.ts "$@"
' test-keychain "$@" || status=$?
exit "$status"
