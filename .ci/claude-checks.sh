#!/usr/bin/env bash
# Checks the plugin with the real Claude Code binary, pinned: the manifest and every command, skill and agent
# pass `claude plugin validate --strict` (and the plugin directory's profile), and the plugin's MCP server
# starts and connects. Claude Code is installed into .ci/tools by .ci/install-claude.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS=.ci/tools
CLAUDE="$TOOLS/node_modules/.bin/claude"

# The pinned version, installed when missing (idempotent).
bash .ci/install-claude.sh
"$CLAUDE" --version

# A throwaway HOME: no user settings, plugins or credentials leak in, and nothing is left behind.
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
export HOME="$SCRATCH" CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1
unset CLAUDE_CONFIG_DIR

fail=0
check() {
  local name="$1" expect="$2"
  shift 2
  local out rc=0
  out="$(timeout 120 "$@" 2>&1)" || rc=$?
  printf '%s\n' "$out"
  # The exit code alone is not enough: `claude mcp list` exits 0 when the server fails to connect.
  if [ "$rc" -ne 0 ] || ! grep -qE -- "$expect" <<<"$out"; then
    echo "FAILED: $name (exit $rc; expected a line matching /$expect/)" >&2
    fail=1
  else
    echo "ok: $name"
  fi
}

check "plugin validate --strict" "^✔ Validation passed" \
  "$CLAUDE" plugin validate . --strict
check "plugin validate --profile directory --strict" "^✔ Validation passed" \
  "$CLAUDE" plugin validate . --profile directory --strict
check "plugin manifest validate --strict" "^✔ Validation passed" \
  "$CLAUDE" plugin validate .claude-plugin/plugin.json --strict
check "the plugin's MCP server connects" "^plugin:deep-research:deep-research: .*✔ Connected" \
  "$CLAUDE" --plugin-dir . mcp list

if [ "$fail" -ne 0 ]; then
  echo "claude-checks: FAILED" >&2
fi
exit "$fail"
