// "1 round", "2 rounds": counts in reports and messages read as sentences, never "round(s)".
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
