// The abusive stream client of bench/reconnect-flood.ts, in its own process on the load core.
// `reconnect`: issue 29's attack, one free key on N connections, each sending 100 maximal subscribe
// frames (1,000 channels × 1,000 symbols, ~25 KB) at once, then reconnecting, and reconnecting at
// once whatever the server answered (refusals and Retry-After ignored). `hostile`: issue 30's, one
// connection sending one maximal frame every 110 ms. Runs `durationS`, prints `STARTED` once the
// first connection is open, then `RESULT <json>` and exits.
import { HOSTILE_FRAME } from '../../test/support/hostile-frame.ts';

interface Config {
  url: string;
  mode: 'reconnect' | 'hostile';
  connections: number;
  durationS: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

const FRAMES_PER_CONNECTION = 100;

const stats = { opened: 0, notOpened: 0, framesSent: 0, answers: 0, closes: {} as Record<string, number> };
let running = true;
let started = false;

function markStarted(): void {
  if (started) return;
  started = true;
  process.stdout.write('STARTED\n');
}

/** One reconnecting loop: connect, send the frames, close, again, until the time is up. */
function reconnectLoop(): Promise<void> {
  return new Promise((done) => {
    const once = () => {
      if (!running) return done();
      const ws = new WebSocket(config.url);
      let opened = false;
      ws.onopen = () => {
        opened = true;
        stats.opened++;
        markStarted();
        for (let i = 0; i < FRAMES_PER_CONNECTION && ws.readyState === WebSocket.OPEN; i++) {
          ws.send(HOSTILE_FRAME);
          stats.framesSent++;
        }
        ws.close(1000);
      };
      ws.onmessage = () => stats.answers++;
      ws.onclose = (e) => {
        if (!opened) stats.notOpened++;
        const key = opened ? String(e.code) : 'refused';
        stats.closes[key] = (stats.closes[key] ?? 0) + 1;
        once();
      };
    };
    once();
  });
}

/** One connection, one frame every 110 ms (under the per-connection 100 frames per 10 s). */
async function hostile(): Promise<void> {
  const ws = new WebSocket(config.url);
  ws.onmessage = () => stats.answers++;
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error(`could not connect to ${config.url}`));
  });
  stats.opened++;
  markStarted();
  while (running && ws.readyState === WebSocket.OPEN) {
    ws.send(HOSTILE_FRAME);
    stats.framesSent++;
    await Bun.sleep(110);
  }
  ws.close(1000);
}

const timer = setTimeout(() => (running = false), config.durationS * 1000);
const loops = config.mode === 'reconnect' ? Array.from({ length: config.connections }, reconnectLoop) : [hostile()];
await Promise.all(loops);
clearTimeout(timer);
process.stdout.write(`RESULT ${JSON.stringify({ ...stats, seconds: config.durationS })}\n`);
process.exit(0);
