// The server computes every threshold (SPEC 4.1); the prose says "do what the reply says" and never restates
// one. A number copied into markdown drifts from the code the day the code changes, and two sources of
// truth is exactly how prompt-only packs end up contradicting themselves.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFiles } from './pack-files.js';
import { REPO } from './tool-names.js';

const COUNT = String.raw`(?:\d+|two|three|four|five|six|seven|eight|nine|ten)`;

/** Each pattern is a way of restating a rule of SPEC 4.1; the label says which. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/(?<![\d.])0?\.60?(?!\d)/, 'URL-overlap plateau level'],
  [/(?<![\d.])0?\.85(?!\d)/, 'repeated-query similarity'],
  [/\bjaccard\b/i, 'repeated-query similarity'],
  [/\b\d+\s*(?:%|percent\b)/i, 'a percentage (reformulation change, degraded failure share)'],
  [/\bhalf\b/i, 'forced-subject point (half the round budget)'],
  [/\b200\s*(?:char|characters)\b/i, 'not-a-source size'],
  [/\b(?:0|zero)\s*[–-]\s*(?:1|one)\b/i, 'saturation band'],
  [/\b2\s*[–-]\s*4\b/, 'saturation band'],
  [/\b5\s*\+/, 'saturation band'],
  [/\b\d+\s*\/\s*\d+\s*\/\s*\d+\b/, 'phase round caps'],
  [new RegExp(String.raw`\b${COUNT}\s+(?:consecutive|clean|in a row)\b`, 'i'), 'a streak length (plateau, drift, sign-offs, failures)'],
  [
    new RegExp(String.raw`\b${COUNT}\s+(?:drift(?:s|ed)?|rounds?|threads?|results?|sign-?offs?|fetch(?:es)?|failures?|attempts?|retries|critic rounds?)\b`, 'i'),
    'a count of rounds, threads, results, sign-offs or failures (tier budgets and caps)',
  ],
  [/\b(?:≤|<=|≥|>=|at most|up to|no more than|at least|more than|fewer than)\s*\d+/i, 'a cap'],
  [/\btwice\b/i, 'a retry or streak count'],
  [/\b\d+\s*(?:years?|seconds?|s)\b/i, 'temporal drift window or retry wait'],
  [/\b(?:1900|2099)\b/, 'temporal drift year range'],
];

const targets = [
  ...packFiles().map((f) => ({ rel: f.rel, text: f.raw })),
  { rel: 'README.md', text: readFileSync(path.join(REPO, 'README.md'), 'utf8') },
];

describe('no threshold of SPEC 4.1 restated in the prose', () => {
  for (const t of targets) {
    it(t.rel, () => {
      const hits: string[] = [];
      t.text.split('\n').forEach((line, i) => {
        for (const [re, what] of FORBIDDEN) {
          const m = re.exec(line);
          if (m) hits.push(`${t.rel}:${i + 1}: "${m[0]}" restates ${what}: say "do what the reply says" instead`);
        }
      });
      expect(hits).toEqual([]);
    });
  }

  it('the patterns catch what they are meant to', () => {
    const samples = [
      'reformulate when overlap reaches 0.60',
      'stop after two consecutive clean sign-offs',
      'saturation is HIGH at 0-1 new facts',
      'read at most 5 results',
      'after 3 drifted results',
      'change at least 50% of the terms',
      'advance after 2/3/2 rounds',
      'pages under 200 characters are refused',
    ];
    for (const s of samples) expect(FORBIDDEN.some(([re]) => re.test(s)), s).toBe(true);
  });
});
