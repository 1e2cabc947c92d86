// Adding our server entry and taking it out again must give back the user's file byte for byte, whatever
// its layout: comments, trailing commas, tabs, CRLF, one-line objects, an empty or absent mcpServers.
import { describe, expect, it } from 'vitest';
import { parse } from 'jsonc-parser';
import { insertProperty, removeProperty } from '../../src/cli/targets/json-entry.js';

const ENTRY = { type: 'stdio', command: 'node', args: ['/clone/dist/server.js'] };

const WITH_SERVERS: Record<string, string> = {
  'comments and a trailing line comment': '{\n  // mine\n  "mcpServers": {\n    "other": { "command": "x" } // keep\n  },\n  "x": 1\n}\n',
  'trailing comma': '{\n  "mcpServers": {\n    "other": {\n      "command": "x"\n    },\n  }\n}\n',
  'tabs': '{\n\t"mcpServers": {\n\t\t"other": {\n\t\t\t"command": "x"\n\t\t}\n\t}\n}\n',
  'CRLF': '{\r\n  "mcpServers": {\r\n    "other": { "command": "x" }\r\n  }\r\n}\r\n',
  'one line': '{"mcpServers":{"other":{"command":"x"}}}',
  'empty object': '{\n  "mcpServers": {}\n}\n',
  'empty object over lines': '{\n  "mcpServers": {\n  }\n}\n',
  'empty object holding a comment': '{\n  "mcpServers": {\n    // none yet\n  }\n}\n',
  'block comment after the last entry': '{\n  "mcpServers": {\n    "a": 1 /* one */\n  }\n}\n',
};

const WITHOUT_SERVERS: Record<string, string> = {
  'as Claude Code writes ~/.claude.json': '{\n  "firstStartTime": "2026-01-01T00:00:00.000Z",\n  "migrationVersion": 15\n}',
  'empty': '{}',
  'one line': '{"a":1}',
  'comment at the end': '{\n  "a": 1 // last\n}\n',
};

describe('insertProperty / removeProperty', () => {
  for (const [name, text] of Object.entries(WITH_SERVERS)) {
    it(`round-trips into an existing mcpServers: ${name}`, () => {
      const { text: added, insertion } = insertProperty(text, ['mcpServers'], 'deep-research', ENTRY, 'f');
      const parsed = parse(added, [], { allowTrailingComma: true });
      expect(parsed.mcpServers['deep-research']).toEqual(ENTRY);
      const before = parse(text, [], { allowTrailingComma: true });
      for (const k of Object.keys(before.mcpServers)) expect(parsed.mcpServers[k]).toEqual(before.mcpServers[k]);
      // Nothing of the original is rewritten: it is all still there, in order.
      expect(stripInsert(added, text)).toBe(true);
      expect(removeProperty(added, ['mcpServers'], 'deep-research', 'f', insertion)).toEqual({ text, exact: true });
    });
  }

  for (const [name, text] of Object.entries(WITHOUT_SERVERS)) {
    it(`round-trips a new mcpServers: ${name}`, () => {
      const { text: added, insertion } = insertProperty(text, [], 'mcpServers', { 'deep-research': ENTRY }, 'f');
      expect(parse(added).mcpServers).toEqual({ 'deep-research': ENTRY });
      expect(removeProperty(added, [], 'mcpServers', 'f', insertion)).toEqual({ text, exact: true });
    });
  }

  it('follows the file’s indentation', () => {
    const { text } = insertProperty(WITH_SERVERS.tabs ?? '', ['mcpServers'], 'deep-research', ENTRY, 'f');
    expect(text).toContain('\n\t\t"deep-research": {\n\t\t\t"type": "stdio",');
    const crlf = insertProperty(WITH_SERVERS.CRLF ?? '', ['mcpServers'], 'deep-research', ENTRY, 'f').text;
    expect(crlf.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('falls back to a structural removal when the entry was reformatted by someone else', () => {
    const text = '{\n  "mcpServers": {\n    "other": 1\n  }\n}\n';
    const { text: added, insertion } = insertProperty(text, ['mcpServers'], 'deep-research', ENTRY, 'f');
    const reformatted = JSON.stringify(JSON.parse(added), null, 4);
    const out = removeProperty(reformatted, ['mcpServers'], 'deep-research', 'f', insertion);
    expect(out.exact).toBe(false);
    expect(JSON.parse(out.text)).toEqual({ mcpServers: { other: 1 } });
  });

  it('refuses a file that is not JSON rather than rewriting it', () => {
    expect(() => insertProperty('{ "a": ', [], 'mcpServers', {}, '.mcp.json')).toThrow(/\.mcp\.json is not valid JSON/);
  });
});

/** True when `original` is a subsequence of `edited` made only of whole insertions (no byte removed). */
function stripInsert(edited: string, original: string): boolean {
  let i = 0;
  for (const ch of edited) if (i < original.length && ch === original[i]) i++;
  return i === original.length;
}
