#!/usr/bin/env bash
# Installs what the e2e scenario needs on a fresh Debian 12 machine (../../shared/notes/vscode-e2e.md):
# Debian's chromium, the Kerberos headers code-server's native module builds against, ripgrep (seeded
# into @vscode/ripgrep's download cache, since its postinstall would fetch rg from GitHub), then
# code-server and playwright-core from this folder's lock (@vscode/vsce, which packages the .vsix,
# is a devDependency of the root project).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v chromium >/dev/null || ! command -v rg >/dev/null || [ ! -e /usr/include/gssapi/gssapi.h ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libkrb5-dev ripgrep >/dev/null
fi

: "${TMPDIR:=/tmp}"
cache="$TMPDIR/vscode-ripgrep-cache-1.15.11"
asset="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -f "$asset" ]; then
  seed="$(mktemp -d)"
  mkdir -p "$cache"
  cp "$(command -v rg)" "$seed/rg"
  tar czf "$asset" -C "$seed" rg
  rm -rf "$seed"
fi

# unsafe_perm: code-server's postinstall refuses to run as root otherwise; yes: node-pty's
# postinstall runs `npx node-gyp` and npm's config here says yes=false.
if [ -f package-lock.json ]; then
  npm_config_unsafe_perm=true npm_config_yes=true npm ci --no-audit --no-fund
else
  npm_config_unsafe_perm=true npm_config_yes=true npm install --no-audit --no-fund
fi
