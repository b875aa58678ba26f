// The serve-time checks of `--record DIR` and `--feed replay:PATH`, made before the data dir is
// touched: a directory that cannot be written, a path with no recording, a clock flag that the
// replay would contradict stop mds with a usage error.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Clock } from '../clock.ts';
import { isReplayFeed, parseReplaySpec } from '../domain/replay-spec.ts';
import { listRecordingFiles } from '../ingest/recording/recording-file.ts';
import { scanRecording } from '../ingest/recording/recording-reader.ts';
import { ReplayClock } from '../ingest/recording/replay-clock.ts';
import { ReplayFeed } from '../ingest/recording/replay-feed.ts';
import { UsageError, type ServeConfig } from '../config.ts';

export interface ReplayPlan {
  feed: ReplayFeed;
  /** The service clock for the whole run: it follows the replay. */
  clock: ReplayClock;
}

/** The replay `--feed` asks for, or null when it asks for none. */
export function planReplay(config: Pick<ServeConfig, 'feed' | 'clockStartMs'>, real: Clock, log: (line: string) => void): ReplayPlan | null {
  if (!isReplayFeed(config.feed)) return null;
  const spec = parseReplaySpec(config.feed);
  if (typeof spec === 'string') throw new UsageError(`--feed: ${spec}`);
  if (config.clockStartMs !== null) throw new UsageError('--clock-start cannot be combined with --feed replay:...: the service clock follows the recording');
  const files = listRecordingFiles(spec.path);
  if (typeof files === 'string') throw new UsageError(`--feed ${config.feed}: ${files}`);
  const notes: string[] = [];
  const summary = scanRecording(files, (text) => notes.push(text));
  if (summary.firstAtMs === null) throw new UsageError(`--feed ${config.feed}: ${spec.path} holds no records${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`);
  const clock = new ReplayClock(summary.firstAtMs, real);
  const at = (ms: number | null) => (ms === null ? '?' : new Date(ms).toISOString());
  log(`replaying ${summary.records} records of ${summary.feeds.map((f) => f.id).join(', ')} from ${files.length} files (${at(summary.firstAtMs)} to ${at(summary.lastAtMs)}) at ${spec.speed === 'max' ? 'max speed' : `${spec.speed}× real time`}${spec.loop ? ', looping' : ''}`);
  return { clock, feed: new ReplayFeed({ summary, speed: spec.speed, loop: spec.loop, clock, real, log }) };
}

/** The absolute recording directory, made if missing; a usage error when it cannot be written. */
export function prepareRecordDir(dir: string): string {
  const abs = resolve(dir);
  try {
    mkdirSync(abs, { recursive: true });
    accessSync(abs, constants.W_OK);
  } catch (err) {
    throw new UsageError(`--record ${dir}: cannot write there (${(err as Error).message})`);
  }
  return abs;
}
