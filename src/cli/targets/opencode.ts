// OpenCode: commands (.opencode/commands/*.md), the investigator sub-agent (.opencode/agents/), the method
// skill (.opencode/skills/), and the server under `mcp` in opencode.json (or opencode.jsonc, comments kept).
// User scope is OpenCode's global folder, ~/.config/opencode (or $XDG_CONFIG_HOME/opencode).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SERVER_NAME, install, serverPath, uninstall } from './generated.js';
import type { Layout } from './generated.js';
import type { Target, TargetContext } from './types.js';
import { serverEnvOf } from './server-env.js';

/** The config file OpenCode reads in `dir`: an existing opencode.jsonc or opencode.json, else a new .json. */
function configFile(dir: string): string {
  for (const name of ['opencode.jsonc', 'opencode.json']) {
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return path.join(dir, 'opencode.json');
}

export function opencodeLayout(ctx: TargetContext): Layout {
  if (ctx.scope.kind === 'project') {
    const base = ctx.scope.dir;
    return {
      target: 'opencode',
      base,
      configDir: path.join(base, '.opencode'),
      config: configSpec(ctx, configFile(base)),
      next: [`next: start opencode in ${base}, check with \`opencode mcp list\`, then type /deep-research "<question>"`],
    };
  }
  const xdg = ctx.vars?.XDG_CONFIG_HOME;
  const configDir = path.join(xdg !== undefined && xdg !== '' ? xdg : path.join(ctx.home, '.config'), 'opencode');
  return {
    target: 'opencode',
    base: ctx.home,
    configDir,
    config: configSpec(ctx, configFile(configDir)),
    next: ['next: start opencode in any project, check with `opencode mcp list`, then type /deep-research "<question>"'],
  };
}

function configSpec(ctx: TargetContext, file: string): Layout['config'] {
  return {
    format: 'json',
    file,
    container: 'mcp',
    value: { type: 'local', command: ['node', serverPath(ctx)], ...serverEnvOf(ctx, 'environment') },
    removeHint: `delete "mcp"."${SERVER_NAME}" from ${path.basename(file)}`,
  };
}

export const opencodeTarget: Target = {
  name: 'opencode',
  async run(ctx) {
    const lay = opencodeLayout(ctx);
    return ctx.action === 'install' ? install(ctx, lay) : uninstall(ctx, lay);
  },
};
