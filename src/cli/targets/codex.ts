// Codex CLI: the commands become skills (a user types $deep-research "<question>"), installed with the
// method skill into <codex dir>/skills/, and the server becomes a marked [mcp_servers.deep-research] block
// in <codex dir>/config.toml. --user is $CODEX_HOME (default ~/.codex). --project is <dir>/.codex: Codex
// 0.169 reads a project's .codex/config.toml and .codex/skills/ only once the project is trusted.
import path from 'node:path';
import { SERVER_ENV_VARS, SERVER_NAME, install, serverPath, uninstall } from './generated.js';
import type { Layout } from './generated.js';
import type { Target, TargetContext } from './types.js';
import { serverEnvOf } from './server-env.js';

export function codexLayout(ctx: TargetContext): Layout {
  const project = ctx.scope.kind === 'project';
  const base = ctx.scope.kind === 'project' ? ctx.scope.dir : ctx.home;
  const codexHome = ctx.vars?.CODEX_HOME;
  const configDir = project ? path.join(base, '.codex') : codexHome !== undefined && codexHome !== '' ? path.resolve(codexHome) : path.join(ctx.home, '.codex');
  return {
    target: 'codex',
    base,
    configDir,
    config: {
      format: 'toml',
      file: path.join(configDir, 'config.toml'),
      command: 'node',
      args: [serverPath(ctx)],
      envVars: SERVER_ENV_VARS,
      ...serverEnvOf(ctx, 'env'),
      removeHint: `codex mcp remove ${SERVER_NAME}`,
    },
    next: project
      ? [
          `next: Codex reads ${path.join(base, '.codex')} only in a trusted project: start codex in ${base} and trust it when asked`,
          `(or add [projects."${base}"] trust_level = "trusted" to ~/.codex/config.toml), check with \`codex mcp list\`, then type $deep-research "<question>"`,
        ]
      : ['next: start codex in any project, check with `codex mcp list`, then type $deep-research "<question>"'],
  };
}

export const codexTarget: Target = {
  name: 'codex',
  async run(ctx) {
    const lay = codexLayout(ctx);
    return ctx.action === 'install' ? install(ctx, lay) : uninstall(ctx, lay);
  },
};
