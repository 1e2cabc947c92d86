// Critic budget (SPEC 11.1): how many critic threads the run can still open, computed one way for the dry
// run, every record_critique and start_thread, so that no reply promises a thread a later call will not
// take. A thread is sent out by a critique that names a next_target; the last critique stops the loop
// (critic.ts), so the critic rounds R allow R − 1 critic threads, and a critique that signs off clean
// spends its chance (a trial's first critique signed off, was told one thread was left, and its second,
// the last, could not open it).
import { criticStopped, type CriticState } from './critic.js';

export function criticThreadBudget(criticRounds: number): number {
  return Math.max(0, criticRounds - 1);
}

/**
 * Critic threads still open to the run: those granted by critiques so far (a next_target each) and not yet
 * started, plus one for each critique still to come that is not the last; none once the loop has stopped.
 */
export function criticThreadsLeft(i: { criticRounds: number; opened: number; state: Pick<CriticState, 'rounds' | 'clean_signoffs' | 'sent'> }): number {
  if (criticStopped(i.state, i.criticRounds)) return 0;
  // A run from before `sent` was kept: count the threads it opened as the ones granted.
  const granted = i.state.sent ?? i.opened;
  const toCome = Math.max(0, i.criticRounds - 1 - i.state.rounds);
  return Math.max(0, Math.min(criticThreadBudget(i.criticRounds), granted + toCome) - i.opened);
}
