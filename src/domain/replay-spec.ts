// The `--feed replay:PATH[:speed=N|max][:loop]` spec: a recording to play back and how. Options
// follow the path after colons; a path may hold colons itself (only trailing `key=value` parts and
// `loop` are options). Pure: a bad spec is a message naming what it takes.

export const REPLAY_FORMAT = 'replay:PATH[:speed=N|max][:loop]';
export const REPLAY_SPEED_MIN = 0.01;
export const REPLAY_SPEED_MAX = 10_000;
const SPEED_TAKES = `a number from ${REPLAY_SPEED_MIN} to ${REPLAY_SPEED_MAX} (N× real time) or 'max' (as fast as the ingest path takes them)`;

export interface ReplaySpec {
  /** A recording file or a directory of them. */
  path: string;
  speed: number | 'max';
  loop: boolean;
}

/** True when `--feed` asks for a replay (then it is the only feed). */
export function isReplayFeed(feed: string): boolean {
  return feed === 'replay' || feed.startsWith('replay:');
}

/** The spec, or a message saying what is wrong and what the spec takes. */
export function parseReplaySpec(raw: string): ReplaySpec | string {
  if (!isReplayFeed(raw)) return `a replay is written ${REPLAY_FORMAT}, got ${JSON.stringify(raw)}`;
  const parts = raw.slice('replay:'.length).split(':');
  const spec: ReplaySpec = { path: '', speed: 1, loop: false };
  while (parts.length > 0) {
    const last = parts[parts.length - 1]!;
    const option = /^([a-z]+)=(.*)$/.exec(last);
    if (last === 'loop') spec.loop = true;
    else if (option?.[1] === 'speed') {
      const value = option[2]!;
      const n = Number(value);
      if (value === 'max') spec.speed = 'max';
      else if (value.trim() !== '' && Number.isFinite(n) && n >= REPLAY_SPEED_MIN && n <= REPLAY_SPEED_MAX) spec.speed = n;
      else return `replay speed takes ${SPEED_TAKES}, got ${JSON.stringify(value)}`;
    } else if (option) return `unknown replay option ${JSON.stringify(last)}; the options are speed=N|max and loop (${REPLAY_FORMAT})`;
    else break;
    parts.pop();
  }
  spec.path = parts.join(':');
  if (spec.path.trim() === '') return `a replay needs the path of a recording file or directory: ${REPLAY_FORMAT}, e.g. replay:./rec:speed=max`;
  return spec;
}
