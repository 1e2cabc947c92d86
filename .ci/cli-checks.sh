#!/usr/bin/env bash
# Installs the pinned Gemini CLI, Codex CLI and OpenCode into .ci/tools/<cli> (one npm prefix each, so that
# installing one never prunes another, nor Claude Code in .ci/tools), for test/cli-targets. Idempotent: a
# present binary of the pinned version is reused, so a second run needs no network at all.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS=.ci/tools
# name | npm package | version | what `<bin> --version` prints
PINS=(
  "gemini|@google/gemini-cli|0.61.0|0.61.0"
  "codex|@openai/codex|0.169.0|codex-cli 0.169.0"
  "opencode|opencode-ai|1.18.33|1.18.33"
)

# --version is run in a throwaway HOME: some of these CLIs create their config folder on any start.
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
version_of() { HOME="$SCRATCH" timeout 60 "$1" --version 2>/dev/null | head -n 1 || true; }

fail=0
for pin in "${PINS[@]}"; do
  IFS='|' read -r name pkg version expect <<<"$pin"
  bin="$TOOLS/$name/node_modules/.bin/$name"
  if [ -x "$bin" ] && [ "$(version_of "$bin")" = "$expect" ]; then
    echo "ok: $pkg@$version already in $TOOLS/$name"
    continue
  fi
  echo "installing $pkg@$version into $TOOLS/$name"
  mkdir -p "$TOOLS/$name"
  npm install --prefix "$TOOLS/$name" --no-save --no-audit --no-fund --loglevel=error "$pkg@$version"
  got="$(version_of "$bin")"
  if [ "$got" != "$expect" ]; then
    echo "cli-checks: $bin --version printed '$got', expected '$expect'" >&2
    fail=1
  else
    echo "ok: $pkg@$version installed"
  fi
done
exit "$fail"
