// What the CLI prints reaches a terminal: a file name or a line of a report written by someone else may
// carry escape sequences (`\e]0;…\a` retitles the window, `\e[2J` clears it) or bidi overrides that reorder
// what is shown. Every line goes out through here with such characters written as visible escapes.

// C0 controls (tab included: one line stays one line), DEL, C1 controls, and the bidi embeddings,
// overrides and isolates.
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** s with every control and bidi-control character written as `\xNN` or `\uNNNN`. */
export function printable(s: string): string {
  return s.replace(CONTROL, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/** One line to stdout, escaped. */
export function out(line: string): void {
  process.stdout.write(`${printable(line)}\n`);
}

/** One line to stderr, escaped. */
export function err(line: string): void {
  process.stderr.write(`${printable(line)}\n`);
}
