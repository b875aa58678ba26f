// One free key sending the largest subscribe frames the protocol admits (1,000 channels × 1,000
// symbols, names repeated) is refused frame by frame, at once, and another client on a real server
// in its own process keeps getting quotes and REST answers throughout. Its latencies, quiet and under
// attack, are printed for the record; timing is not asserted in a test (it belongs in bench/).
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CRYPTO } from '../../src/ingest/reference/crypto.ts';
import { createKeyOn } from '../support/cli.ts';
import { spawnServer, TEST_KEY } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

/** Spelling variants of every crypto symbol (case, spaces): 1,000 distinct strings naming valid pairs. */
function hostileSymbols(): string[] {
  const out: string[] = [];
  for (let variant = 0; out.length < 1000; variant++) {
    for (const { symbol } of CRYPTO) {
      const spelled = [...symbol].map((ch, i) => ((variant >> i) & 1 ? ch.toLowerCase() : ch)).join('');
      out.push(variant >= 64 ? ` ${spelled}` : spelled);
      if (out.length === 1000) break;
    }
  }
  return out;
}

const HOSTILE_FRAME = JSON.stringify({ action: 'subscribe', channels: Array(1000).fill('crypto.quotes'), symbols: hostileSymbols() });
const PHASE_MS = 2500;
const ROUNDS = 2;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

describe('hostile subscribe frames', () => {
  test("1,000 × 1,000-pair frames from a free key are refused at once, and another client's quotes and REST go on", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mds-hostile-'));
    try {
      await using server = await spawnServer(dataDir, ['--sim-rate', '2', '--history-days', '1']);
      const { key: freeKey } = await createKeyOn({ dataDir, get: server.get }, '--plan', 'free');
      expect(HOSTILE_FRAME.length).toBeGreaterThan(20_000);
      expect(HOSTILE_FRAME.length).toBeLessThan(64 * 1024);

      // The victim: every crypto quote on the stream, and a quote over REST every 10 ms.
      const wsBase = server.base.replace('http', 'ws');
      await using victim = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
      let newestTs = 0;
      let clockOffset = Infinity; // the server clock's lead over ours, as the freshest quote shows it
      victim.ws.addEventListener('message', (e) => {
        const m = JSON.parse(String(e.data));
        if (m.type !== 'quote') return;
        newestTs = Math.max(newestTs, m.ts);
        clockOffset = Math.min(clockOffset, Date.now() - m.ts);
      });
      victim.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['*'] });
      await victim.next((m) => m.type === 'subscribed');

      await using attacker = await connect(`${wsBase}/?apiKey=${freeKey}`);
      await attacker.next((m) => m.type === 'ready');
      let sent = 0;
      let answered = 0;
      attacker.ws.addEventListener('message', () => answered++);

      const samples = { quiet: { rest: [] as number[], age: [] as number[] }, attack: { rest: [] as number[], age: [] as number[] } };
      let phase: 'quiet' | 'attack' = 'quiet';
      let running = true;
      // REST: one request at a time; a request still open when measuring ends counts what it has waited.
      let inflightSince = 0;
      const restLoop = (async () => {
        while (running) {
          const at = phase;
          inflightSince = performance.now();
          // Once measuring stops (a failed expectation ends the test), a request cut off by the
          // server's disposal is no longer a sample.
          const ok = await server.get('/crypto/quote/BTCUSD').then((res) => res.arrayBuffer().then(() => true), (err) => (running ? Promise.reject(err) : false));
          if (!ok) break;
          samples[at].rest.push(performance.now() - inflightSince);
          inflightSince = 0;
          await Bun.sleep(10);
        }
      })();
      // Quote freshness: how old the newest quote the victim holds is, every 10 ms.
      const ageTimer = setInterval(() => {
        if (newestTs > 0 && clockOffset !== Infinity) samples[phase].age.push(Date.now() - clockOffset - newestTs);
      }, 10);
      // The attacker: one hostile frame every 110 ms, under the 100-frames-per-10-s flood limit.
      let attackTimer: ReturnType<typeof setInterval> | null = null;
      try {
        await Bun.sleep(300); // the first quotes set the clock offset
        for (let round = 0; round < ROUNDS; round++) {
          phase = 'quiet';
          await Bun.sleep(PHASE_MS);
          phase = 'attack';
          attackTimer = setInterval(() => {
            attacker.ws.send(HOSTILE_FRAME);
            sent++;
          }, 110);
          await Bun.sleep(PHASE_MS);
          clearInterval(attackTimer);
          // A request the attack held up counts what it waited so far.
          if (inflightSince > 0) samples.attack.rest.push(performance.now() - inflightSince);
          // The next quiet phase starts once the server has answered every frame: on a server that
          // queued the work this does not happen within the cap, and the test fails here.
          const deadline = performance.now() + 5000;
          while (answered < sent && performance.now() < deadline) await Bun.sleep(20);
          if (answered < sent) break;
        }
      } finally {
        running = false;
        if (attackTimer) clearInterval(attackTimer);
        clearInterval(ageTimer);
      }
      await restLoop;

      const report = {
        rest: { quiet: p99(samples.quiet.rest), attack: p99(samples.attack.rest), n: samples.attack.rest.length },
        age: { quiet: p99(samples.quiet.age), attack: p99(samples.attack.age), n: samples.attack.age.length },
      };
      console.log(`p99 ms, quiet vs attack (${sent} hostile frames): ${JSON.stringify(report)}`);
      // The other client was served all along: a stall would leave it few answers and quotes.
      expect(Math.min(samples.quiet.rest.length, samples.attack.rest.length)).toBeGreaterThan(100);
      expect(Math.min(samples.quiet.age.length, samples.attack.age.length)).toBeGreaterThan(200);
      // Every hostile frame was refused at once, naming the cap.
      expect(answered).toBe(sent);
      const distinct = new Set(hostileSymbols()).size;
      expect(attacker.messages.filter((m) => m.type === 'error').length).toBe(sent);
      expect(attacker.messages.find((m) => m.type === 'error')).toEqual({ type: 'error', code: 'too_many_subscriptions', message: `too many pairs in one frame: 1 × ${distinct} = ${distinct} channel × symbol pairs (after removing repeats); at most 50 per frame, the subscription limit` });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
