// A tool's zod shapes are built when first read, not when its module loads: the bundle answers tools/list from
// a list made at build time, so a session builds only the shapes of the tools it calls (bench: cold start).
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool, once } from '../../src/tools/tool.js';

describe('defineTool', () => {
  it("builds a tool's input and output shapes on first read, each once", () => {
    const built = { input: 0, output: 0 };
    const tool = defineTool({
      name: 'probe',
      config: {
        title: 'Probe',
        description: 'A probe.',
        annotations: { readOnlyHint: true },
        inputSchema: () => (built.input++, { a: z.string() }),
        outputSchema: () => (built.output++, { b: z.number() }),
      },
      handler: (args) => ({ content: [{ type: 'text', text: args.a }] }),
    });
    expect(built).toEqual({ input: 0, output: 0 });
    const input = tool.config.inputSchema;
    expect(tool.config.inputSchema).toBe(input);
    expect(built).toEqual({ input: 1, output: 0 });
    expect(Object.keys(tool.config.outputSchema)).toEqual(['b']);
    expect(built).toEqual({ input: 1, output: 1 });
    expect(tool.config.title).toBe('Probe');
  });

  it('once runs its builder on the first call only and returns that value after', () => {
    let runs = 0;
    const get = once(() => ({ run: ++runs }));
    expect(runs).toBe(0);
    expect(get()).toBe(get());
    expect(runs).toBe(1);
  });
});
