/**
 * A refusal caused by the caller's input. Tools turn it into `isError: true` with this message, so the
 * message must say what was wrong and what to send instead. Anything else thrown is a programmer bug.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
}
