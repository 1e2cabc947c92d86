// A tools/call whose params are not shaped as the protocol says is the caller's mistake (issue 19 item 7):
// invalid params (-32602) and one sentence, not -32603 with a dump of zod issues; the session goes on.
import { afterEach, describe, expect, it } from 'vitest';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { connect, type Harness } from '../helpers/mcp.js';

let h: Harness;
afterEach(async () => h?.close());

describe('tools/call with malformed params', () => {
  it.each([
    [{ name: 'thread_status', arguments: 'x' }, /params\.arguments must be an object of the tool's named arguments, not a string\.$/],
    [{ name: 'thread_status', arguments: [1, 2] }, /not an array\.$/],
    [{ name: 7, arguments: {} }, /params\.name must be the tool's name, a string\.$/],
  ])('%j gets invalid params and one sentence', async (params, says) => {
    h = await connect();
    const err = await h.client.request({ method: 'tools/call', params: params as never }, CallToolResultSchema).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    const message = (err as McpError).message;
    expect(message).toMatch(says);
    expect(message).not.toMatch(/expected|received|"path"|\[\s*\{/);
    expect(message.split('\n')).toHaveLength(1);
    // The session keeps serving.
    expect(await h.refused('thread_status', { run_id: 'nope-123456', thread: 'x' })).toMatch(/unknown run/);
  });
});
