// Gemini CLI: custom commands (.gemini/commands/*.toml), the investigator sub-agent (.gemini/agents/),
// the method skill (.gemini/skills/), and the server in .gemini/settings.json under mcpServers. Gemini CLI
// reads a project's .gemini/ only in a trusted folder. The entry is marked `trust: true`: the commands
// call nothing but this server's tools, which Claude Code's command allow-lists grant in the same way.
// That turns off Gemini's confirmation before every call of these tools (fetch_source included), so the
// install says so and how to take it back.
import path from 'node:path';
import { SERVER_NAME, install, serverPath, uninstall } from './generated.js';
import type { Layout } from './generated.js';
import type { Target, TargetContext } from './types.js';
import { serverEnvOf } from './server-env.js';

export function geminiLayout(ctx: TargetContext): Layout {
  const project = ctx.scope.kind === 'project';
  const base = ctx.scope.kind === 'project' ? ctx.scope.dir : ctx.home;
  const configDir = path.join(base, '.gemini');
  return {
    target: 'gemini',
    base,
    configDir,
    config: {
      format: 'json',
      file: path.join(configDir, 'settings.json'),
      container: 'mcpServers',
      value: { command: 'node', args: [serverPath(ctx)], ...serverEnvOf(ctx, 'env'), trust: true },
      removeHint: `gemini mcp remove ${project ? '--scope project' : '--scope user'} ${SERVER_NAME}`,
    },
    next: [
      `note: the entry has "trust": true, so Gemini CLI calls this server's tools (fetch_source included) without asking each time; ` +
        `delete "trust" from the "${SERVER_NAME}" entry in ${project ? '.gemini/settings.json' : path.join(ctx.home, '.gemini', 'settings.json')} to be asked before every call.`,
      project
        ? `next: start gemini in ${base} (trust the folder when asked), check with /mcp, then type /deep-research "<question>"`
        : 'next: start gemini in any project, check with /mcp, then type /deep-research "<question>"',
    ],
  };
}

export const geminiTarget: Target = {
  name: 'gemini',
  async run(ctx) {
    const lay = geminiLayout(ctx);
    return ctx.action === 'install' ? install(ctx, lay) : uninstall(ctx, lay);
  },
};
