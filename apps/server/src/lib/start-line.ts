import pino from 'pino';
import type { TConfig } from '../config';

/**
 * How the server's start lines are written (issue 43 item 2): in production one JSON line each at
 * `info`, like every other line on stdout (a log collector parses them all); elsewhere plain text
 * for the person at the terminal.
 */
export function startLine(config: Pick<TConfig, 'isProduction' | 'logLevel'>): (message: string) => void {
  if (!config.isProduction) return (message) => console.log(message);
  const logger = pino({ level: config.logLevel });
  return (message) => logger.info(message);
}
