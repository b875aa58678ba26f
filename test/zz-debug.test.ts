import { test } from 'bun:test';
import { spawnServer } from './support/server.ts';
import { tempDir } from './support/temp-dir.ts';
test('x', async () => {
  using dir = tempDir();
  await using server = await spawnServer(dir.path, ['--clock-start', '2026-03-04T15:30:57Z']);
  for (let i = 0; i < 40; i++) {
    const { body } = await server.json('/crypto/agg/BTCUSD/prev?interval=1m');
    if (i % 5 === 0) console.log(i, body.bar_start, JSON.stringify((await server.json('/crypto/quote/BTCUSD')).body.timestamp));
    if (body.bar_start === Date.parse('2026-03-04T15:30:00Z')) { console.log('done', i); break; }
    await Bun.sleep(250);
  }
}, 30000);
