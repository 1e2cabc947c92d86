// A process that takes a run's lock and holds it until killed: what a server SIGKILLed inside a write
// leaves behind. Spawned by bench/stale-lock.ts: node --import tsx bench/lock-holder.ts <root> <run_id>
import { RunStore } from '../src/store/run-store.js';

const [root, runId] = process.argv.slice(2) as [string, string];
await new RunStore(root).lock(runId, async () => {
  process.stdout.write('held\n');
  await new Promise(() => setInterval(() => undefined, 60_000));
});
