#!/usr/bin/env bash
# Installs the pinned Claude Code into .ci/tools (not a devDependency, so `npm ci` stays small), for
# .ci/claude-checks.sh and the end-to-end tests (test/e2e/global-setup.ts runs this when it is missing).
# Idempotent: a present binary of the pinned version is reused, so a second run needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."

CLAUDE_VERSION=2.1.328
TOOLS=.ci/tools
CLAUDE="$TOOLS/node_modules/.bin/claude"

if ! { [ -x "$CLAUDE" ] && "$CLAUDE" --version 2>/dev/null | grep -q "^$CLAUDE_VERSION "; }; then
  echo "installing @anthropic-ai/claude-code@$CLAUDE_VERSION into $TOOLS"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --no-save --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$CLAUDE_VERSION"
fi
if ! [ -x "$CLAUDE" ]; then
  echo "install-claude: $CLAUDE is missing after the install" >&2
  exit 1
fi
