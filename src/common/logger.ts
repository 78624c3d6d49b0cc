/** The logging port: vscode/ implements it with a LogOutputChannel, tests with an array. */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export interface LogRecord {
  level: LogLevel;
  message: string;
  args: unknown[];
}

/** Keeps records in memory; used by unit tests and benchmarks. */
export class MemoryLogger implements Logger {
  readonly records: LogRecord[] = [];
  trace(message: string, ...args: unknown[]) {
    this.records.push({ level: 'trace', message, args });
  }
  debug(message: string, ...args: unknown[]) {
    this.records.push({ level: 'debug', message, args });
  }
  info(message: string, ...args: unknown[]) {
    this.records.push({ level: 'info', message, args });
  }
  warn(message: string, ...args: unknown[]) {
    this.records.push({ level: 'warn', message, args });
  }
  error(message: string | Error, ...args: unknown[]) {
    this.records.push({ level: 'error', message: message instanceof Error ? message.message : message, args });
  }
  messages(level?: LogLevel): string[] {
    return this.records.filter((r) => !level || r.level === level).map((r) => r.message);
  }
}

export const nullLogger: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
