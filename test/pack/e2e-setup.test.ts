// `npm run test:e2e` from a fresh clone installs the pinned Claude Code it needs instead of failing every
// test with a request to run a script by hand. The install itself is stubbed here (npm test stays offline).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PINNED } from '../e2e/harness/claude.js';
import { ensurePinnedClaude } from '../e2e/harness/pinned-claude.js';
import e2eConfig from '../e2e/vitest.config.js';

/** A fake `claude` that prints `version` for --version. */
function fakeClaude(file: string, version: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\necho "${version} (Claude Code)"\n`, { mode: 0o755 });
}

describe('the end-to-end suite installs the pinned Claude Code', () => {
  const claude = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dr-e2e-setup-')), 'node_modules', '.bin', 'claude');

  it('installs it when it is missing or another version, and leaves the pinned one alone', () => {
    for (const before of [undefined, '2.0.1']) {
      const file = claude();
      if (before) fakeClaude(file, before);
      const installs: string[] = [];
      expect(ensurePinnedClaude({ claude: file, pinned: PINNED, install: () => (installs.push('npm'), fakeClaude(file, PINNED)) })).toBe('installed');
      expect(installs).toEqual(['npm']);
      expect(ensurePinnedClaude({ claude: file, pinned: PINNED, install: () => installs.push('again') })).toBe('present');
      expect(installs).toEqual(['npm']);
    }
  });

  it('says what failed when the install fails or installs the wrong version', () => {
    expect(() => ensurePinnedClaude({ claude: claude(), pinned: PINNED, install: () => { throw new Error('npm ERR! network'); } })).toThrow(
      /could not install the pinned Claude Code .*: npm ERR! network\. Run `bash \.ci\/install-claude\.sh` to see why\./,
    );
    const file = claude();
    expect(() => ensurePinnedClaude({ claude: file, pinned: PINNED, install: () => fakeClaude(file, '9.9.9') })).toThrow(/reports 9\.9\.9 \(Claude Code\), not the pinned/);
  });

  it('runs from the e2e config’s global setup, with the version the install script pins', () => {
    expect(e2eConfig.test?.globalSetup).toEqual(['test/e2e/global-setup.ts']);
    expect(fs.readFileSync('test/e2e/global-setup.ts', 'utf8')).toContain("'install-claude.sh'");
    expect(fs.readFileSync('.ci/install-claude.sh', 'utf8')).toContain(`CLAUDE_VERSION=${PINNED}\n`);
  });
});
