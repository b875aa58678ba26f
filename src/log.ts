// The service's one logger: levelled lines with fields, as text or one JSON object per line, timed
// by the service clock. Code that logs English sentences keeps its `(line) => void` through
// lineLogger(), which reads the level and the feed/stream fields from the sentence's prefix.
import type { Clock } from './clock.ts';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Readonly<Record<string, LogValue>>;
/** A sentence logger, the shape most of the service is handed. */
export type LineLog = (line: string) => void;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds these fields to every line. */
  child(fields: LogFields): Logger;
  /** `(line) => void` for code that logs sentences: `error: ...` and `warning: ...` take their level, the rest `level`. */
  lineLogger(level?: LogLevel): LineLog;
}

export interface LoggerOptions {
  clock: Clock;
  format: LogFormat;
  /** Lines below this level are dropped. */
  level: LogLevel;
  /** Where each finished line goes, without its newline. */
  write: (line: string) => void;
}

type Emit = (level: LogLevel, message: string, fields: LogFields) => void;

function makeLogger(emit: Emit, bound: LogFields): Logger {
  const at = (level: LogLevel) => (message: string, fields?: LogFields) => emit(level, message, fields === undefined ? bound : { ...bound, ...fields });
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => makeLogger(emit, { ...bound, ...fields }),
    lineLogger: (level = 'info') => (line) => {
      const parsed = parseLine(line, level);
      emit(parsed.level, parsed.message, { ...bound, ...parsed.fields });
    },
  };
  return logger;
}

export function createLogger(opts: LoggerOptions): Logger {
  const min = LOG_LEVELS.indexOf(opts.level);
  return makeLogger((level, message, fields) => {
    if (LOG_LEVELS.indexOf(level) < min) return;
    const time = new Date(opts.clock.nowMs()).toISOString();
    opts.write(opts.format === 'json' ? jsonLine(time, level, message, fields) : `${time} ${level} ${message}${textFields(fields)}`);
  }, {});
}

/**
 * A logger over a plain sentence sink (tests, embedding): lines read as they did before levels,
 * `error: `/`warning: ` in front and fields after, so a sentence logged through lineLogger() comes
 * out as it went in.
 */
export function loggerOf(sink: LineLog): Logger {
  const prefix: Record<LogLevel, string> = { debug: 'debug: ', info: '', warn: 'warning: ', error: 'error: ' };
  return makeLogger((level, message, fields) => sink(`${prefix[level]}${message}${textFields(fields)}`), {});
}

/** Text lines on stderr from `info` up: for parts run without the service's logger. */
export function stderrLogger(clock: Clock): Logger {
  return createLogger({ clock, format: 'text', level: 'info', write: (line) => process.stderr.write(`${line}\n`) });
}

/** A logger that drops everything. */
export const silentLogger: Logger = makeLogger(() => {}, {});

/** Serve takes a Logger or, from tests and embedders, a sentence sink. */
export function asLogger(log: Logger | LineLog): Logger {
  return typeof log === 'function' ? loggerOf(log) : log;
}

const PREFIX_LEVELS: [RegExp, LogLevel][] = [
  [/^error:\s*/, 'error'],
  [/^warning:\s*/, 'warn'],
];

/** Level and fields of a sentence, from how it starts: `feed ID...`, `stream: closed CONN (key KEY)`. */
export function parseLine(line: string, fallback: LogLevel): { level: LogLevel; message: string; fields: Record<string, string> } {
  let level = fallback;
  let message = line;
  for (const [re, l] of PREFIX_LEVELS) {
    const m = re.exec(line);
    if (m) {
      level = l;
      message = line.slice(m[0].length);
      break;
    }
  }
  const fields: Record<string, string> = {};
  const feed = /^feed ([a-z0-9][a-z0-9-]*)[: ]/.exec(message);
  if (feed) fields.feed = feed[1]!;
  const conn = /^stream: [a-z ]+? (\S+) \(key ([^\s)]+)\)/.exec(message);
  if (conn) {
    fields.conn = conn[1]!;
    fields.key_id = conn[2]!;
  }
  return { level, message, fields };
}

function jsonLine(time: string, level: LogLevel, message: string, fields: LogFields): string {
  const out: Record<string, LogValue> = { time, level, msg: message };
  // The three named keys come first and cannot be overwritten by a field of the same name.
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && !(k in out)) out[k] = v;
  return JSON.stringify(out);
}

/** ` key=value` per field; a value with spaces, quotes or `=` is quoted as JSON. */
function textFields(fields: LogFields): string {
  let out = '';
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    const s = String(v);
    out += ` ${k}=${s === '' || /[\s"=]/.test(s) ? JSON.stringify(s) : s}`;
  }
  return out;
}
