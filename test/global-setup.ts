// One temp root per `npm test` run, split per test file by test/helpers/temp-root.ts; see temp-run.ts.
import { makeRunRoots, removeRunRoots } from './helpers/temp-run.js';

export default function setup(): () => void {
  const roots = makeRunRoots();
  return () => removeRunRoots(roots);
}
