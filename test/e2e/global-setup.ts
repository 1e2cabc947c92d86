// Before any end-to-end test: the pinned Claude Code, installed into .ci/tools when it is missing.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { CLAUDE, PINNED, REPO } from './harness/claude.js';
import { ensurePinnedClaude } from './harness/pinned-claude.js';

export default function setup(): void {
  const did = ensurePinnedClaude({
    claude: CLAUDE,
    pinned: PINNED,
    install: () => execFileSync('bash', [path.join(REPO, '.ci', 'install-claude.sh')], { stdio: 'inherit', timeout: 600_000 }),
  });
  if (did === 'installed') console.log(`installed the pinned Claude Code ${PINNED} into .ci/tools`);
}
