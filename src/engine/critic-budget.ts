// Critic budget (SPEC 11.1): how many critic threads the run can still open, computed one way for the dry
// run, every record_critique and start_thread, so that no reply promises a thread a later call will not
// take. Each critique but the last can send a thread out; the last one stops the loop (critic.ts), so
// the critic rounds R allow R − 1 critic threads.
import { criticStopped, type CriticState } from './critic.js';

export function criticThreadBudget(criticRounds: number): number {
  return Math.max(0, criticRounds - 1);
}

/** Critic threads still open to the run: none once the loop has stopped. */
export function criticThreadsLeft(i: { criticRounds: number; opened: number; state: Pick<CriticState, 'rounds' | 'clean_signoffs'> }): number {
  if (criticStopped(i.state, i.criticRounds)) return 0;
  return Math.max(0, criticThreadBudget(i.criticRounds) - i.opened);
}
