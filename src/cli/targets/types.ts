// The contract between the install CLI and one agent CLI's installer.

export type Scope = { kind: 'project'; dir: string } | { kind: 'user' };

export interface TargetContext {
  action: 'install' | 'uninstall';
  scope: Scope;
  /** The user's home directory. */
  home: string;
  /** Claude Code's CLAUDE_CONFIG_DIR, when set: it moves ~/.claude and ~/.claude.json. */
  claudeConfigDir?: string | undefined;
  /**
   * Environment variables that move other CLIs' config folders (CODEX_HOME, XDG_CONFIG_HOME). Taken from
   * the process only when no home directory was given, so tests see none of the developer's.
   */
  vars?: Readonly<Record<string, string | undefined>>;
  /** Root of the deep-research clone whose commands and server are installed. */
  packRoot: string;
  /** Environment written into the server entry (install --local-root sets DEEP_RESEARCH_LOCAL_ROOTS). */
  serverEnv?: Readonly<Record<string, string>>;
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface Target {
  name: string;
  /** Returns the process exit code: 0 done, 1 refused or incomplete. */
  run(ctx: TargetContext): Promise<number>;
}
