import type { TConfig } from '../config';

export interface TCliContext {
  config: TConfig;
  /** Arguments after the command name. */
  args: string[];
}

/**
 * One CLI command: `src/cli/<name>.ts` default-exports one of these. `run` returns the exit code;
 * open the database with `withDatabase` so it is always closed.
 */
export interface TCliCommand {
  description: string;
  /** e.g. `EMAIL` */
  usage?: string;
  run(context: TCliContext): Promise<number>;
}
