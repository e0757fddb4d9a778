import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type TLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that becomes a pino child only when something is logged at an enabled level.
 * Fastify makes a child logger for every request (its request id bound, the route's level set);
 * on the gateway, where a call logs nothing unless it fails, that child was about a tenth of the
 * CPU a call costs at concurrency 1 (decision 027). Level checks are answered from the levels alone.
 */
export class LazyChildLogger implements FastifyBaseLogger {
  private real: Logger | null = null;
  private readonly threshold: number;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    const level = options.level;
    this.threshold =
      level === undefined ? parent.levelVal : level === 'silent' ? Infinity : parent.levels.values[level]!;
  }

  get level(): string {
    return this.real?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  get msgPrefix(): string | undefined {
    return this.parent.msgPrefix;
  }

  isLevelEnabled(level: string): boolean {
    if (this.real) return this.real.isLevelEnabled(level);
    const value = this.parent.levels.values[level];
    return value !== undefined && value >= this.threshold;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  private logger(): Logger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: TLevel, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger()[level] as (...rest: unknown[]) => void)(...args);
  }
}

/** `setChildLoggerFactory` for a scope whose requests seldom log (the gateway). */
export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger as Logger, bindings, options);
}
