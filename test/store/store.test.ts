import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepTemps, writeBatch } from '../../src/store/fs-safe.js';
import { withRunLock } from '../../src/store/lock.js';
import { tempDir } from '../helpers/mcp.js';

describe('store internals', () => {
  it('sweeps temp files of dead writers and keeps those of live ones', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, '.run.json.999999.0a1b2c3d.tmp'), 'torn');
    fs.writeFileSync(path.join(dir, `.run.json.${process.pid}.0a1b2c3d.tmp`), 'in flight');
    fs.writeFileSync(path.join(dir, 'run.json'), '{}');
    expect(sweepTemps(dir)).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual([`.run.json.${process.pid}.0a1b2c3d.tmp`, 'run.json']);
  });

  it('writes a batch only when every target can be written', () => {
    const root = tempDir();
    const outside = path.join(tempDir(), 'victim.txt');
    fs.writeFileSync(outside, 'victim');
    fs.symlinkSync(outside, path.join(root, 'b.md'));
    expect(() => writeBatch(root, [{ file: path.join(root, 'a.md'), content: 'a' }, { file: path.join(root, 'b.md'), content: 'b' }])).toThrow(/symlink/);
    expect(fs.existsSync(path.join(root, 'a.md'))).toBe(false);
    expect(fs.readFileSync(outside, 'utf8')).toBe('victim');
  });

  it('refuses a lock folder that is a symlink, quickly and with what to do', async () => {
    const dir = tempDir();
    fs.symlinkSync(tempDir(), path.join(dir, '.lock'));
    const started = Date.now();
    await expect(withRunLock(dir, () => 1)).rejects.toThrow(/\.lock .* is a symlink; remove it/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('serialises callers in one process in arrival order', async () => {
    const dir = tempDir();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withRunLock(dir, async () => {
          order.push(i);
          await new Promise((r) => setTimeout(r, 1));
        }),
      ),
    );
    expect(order).toEqual([...Array(12).keys()]);
  });
});
