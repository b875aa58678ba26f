// `mds keys` and `mds serve` options around keys, as an operator uses them: show and update while
// the server runs, plan changes and add-ons, --no-dev-key, keys whose plan a --plans file lacks,
// plans-file messages, and secrets kept out of every log line (also the lines about the key).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { createKeyOn, runMds, until } from '../support/cli.ts';
import { connect } from '../support/ws-client.ts';

let server: TestServer;
beforeAll(async () => {
  // On the real clock: `mds keys show` counts usage in the quota window of now.
  server = await startServer({ args: ['--feed', 'none', '--clock-start', String(Date.now())] });
});
afterAll(() => server.stop());

const keys = (...args: string[]) => runMds('keys', ...args, '--data-dir', server.dataDir);

const createKey = (...args: string[]) => createKeyOn(server, ...args);

describe('mds keys show and update', () => {
  test('show: the key and its usage in the current quota window', async () => {
    const { id, key } = await createKey('--plan', 'free', '--name', 'shown');
    for (let i = 0; i < 3; i++) await (await server.get('/crypto/symbols', { key })).arrayBuffer();
    // Usage reaches the data dir through the write queue: await it, as an operator would re-run the command.
    let shown: Record<string, unknown> = {};
    await until(async () => {
      shown = JSON.parse((await keys('show', id, '--json')).out);
      return shown.used === 4;
    }, 'the usage to be written');
    expect(shown).toMatchObject({ id, name: 'shown', plan: 'free', markets: ['US'], addons: [], revoked: null, used: 4, quota: 3000 });
    expect(JSON.stringify(shown)).not.toContain(key);
  }, 90_000);

  test('update: the running server sees new markets within a second', async () => {
    const { id, key } = await createKey('--plan', 'starter', '--markets', 'US');
    expect((await server.get('/stocks/quote/DE:SAP', { key })).status).toBe(403);
    const r = await keys('update', id, '--markets', 'US,DE', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).markets).toEqual(['US', 'DE']);
    await until(async () => (await server.get('/stocks/quote/DE:SAP', { key })).status !== 403, 'market DE to be enabled');
  });

  test('update --plan refuses to carry add-ons the new plan does not offer, naming them; --addons says what to keep', async () => {
    const { id } = await createKey('--plan', 'pro', '--addons', 'fundamentals,bonds');
    const refused = await keys('update', id, '--plan', 'free');
    expect(refused.code).toBe(2);
    expect(refused.err).toBe("mds: --plan: the free plan does not offer the add-ons fundamentals, bonds this key has; add --addons with the ones to keep (the free plan offers: none; --addons '' keeps none)\n");
    expect(JSON.parse((await keys('show', id, '--json')).out)).toMatchObject({ plan: 'pro', addons: ['fundamentals', 'bonds'] });
    const done = await keys('update', id, '--plan', 'free', '--addons', '', '--json');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toMatchObject({ plan: 'free', addons: [] });
  });
});

describe('mds keys list', () => {
  test('a key whose create was killed before it printed shows 0 calls; a key in use shows its calls', async () => {
    const { id: usedId, key } = await createKey('--plan', 'free', '--name', 'in use');
    await (await server.get('/crypto/quote/BTCUSD', { key })).arrayBuffer();
    // The commit of 'keys create' without its output: what a kill between the two leaves behind.
    const store = resolve(import.meta.dir, '../../src/store/index.ts');
    const script = `import { Store } from ${JSON.stringify(store)}; const s = Store.open({ dataDir: ${JSON.stringify(server.dataDir)} }); s.accounts.create({ name: 'unprinted', plan: 'free', markets: ['US'], addons: [] }, Date.now()); await s.close();`;
    const silent = Bun.spawn([process.execPath, '-e', script], { stdout: 'pipe', stderr: 'pipe' });
    expect(await silent.exited).toBe(0);
    expect(await new Response(silent.stdout).text()).toBe('');
    let listed: { id: string; name: string; used_total: number }[] = [];
    await until(async () => {
      listed = JSON.parse((await keys('list', '--json')).out);
      return (listed.find((k) => k.id === usedId)?.used_total ?? 0) >= 2;
    }, 'the usage to be written');
    expect(listed.find((k) => k.name === 'unprinted')).toMatchObject({ plan: 'free', revoked: null, used_total: 0 });
    const table = (await keys('list')).out.split('\n');
    expect(table[0]).toMatch(/ STATUS +USED +NAME$/);
    expect(table.find((line) => line.endsWith(' unprinted'))).toMatch(/ active +0 +unprinted$/);
  });
});

describe('the free plan is US stocks only (spec: crypto, forex and US stocks)', () => {
  test('create and update refuse other markets, naming what the plan offers; all means US', async () => {
    const refused = await keys('create', '--plan', 'free', '--markets', 'US,DE');
    expect([refused.code, refused.err]).toEqual([2, 'mds: --markets: the free plan does not offer the market DE (it offers: US)\n']);
    const all = await keys('create', '--plan', 'free', '--markets', 'all', '--json');
    expect(JSON.parse(all.out).markets).toEqual(['US']);
    const { id } = await createKey('--plan', 'free');
    const update = await keys('update', id, '--markets', 'JP');
    expect([update.code, update.err]).toEqual([2, 'mds: --markets: the free plan does not offer the market JP (it offers: US)\n']);
  });

  test('moving a key with other markets to the free plan needs --markets', async () => {
    const { id, key } = await createKey('--plan', 'starter', '--markets', 'US,DE');
    const refused = await keys('update', id, '--plan', 'free');
    expect([refused.code, refused.err]).toEqual([2, 'mds: --plan: the free plan does not offer the market DE this key has; add --markets with the ones to keep (the free plan offers: US)\n']);
    expect((await keys('update', id, '--plan', 'free', '--markets', 'US')).code).toBe(0);
    await until(async () => (await server.get('/stocks/quote/DE:SAP', { key })).status === 403, 'the plan change to be seen');
    expect(await (await server.get('/stocks/quote/DE:SAP', { key })).json()).toMatchObject({ error: 'market DE is not included in the free plan' });
  });
});

describe('secrets in logs', () => {
  test('a key sent as ?apiKey= on REST and the stream, then revoked: the log lines about it name its id, never its secret', async () => {
    const { id, key } = await createKey('--plan', 'free');
    for (const path of ['/crypto/quote/NOPEUSD', '/indices/quote/US500', '/crypto/agg/BTCUSD/1/minute/2026-01-02/2026-01-01']) {
      expect((await server.get(`${path}?apiKey=${key}`, { key: null })).status).toBeGreaterThanOrEqual(400);
    }
    await using c = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${key}`);
    await c.next((m) => m.type === 'ready');
    expect((await keys('revoke', id)).code).toBe(0);
    await c.closed;
    const logged = server.logs.join('\n');
    expect(logged).toContain(id);
    expect(logged).not.toContain(key);
  });
});

describe('serve options', () => {
  test('--no-dev-key: the development key is refused and none is printed', async () => {
    await using own = await startServer({ args: ['--feed', 'none', '--no-dev-key'] });
    const res = await own.get('/crypto/symbols');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('invalid API key');
    const logged = own.logs.join('\n');
    expect(logged).toContain('no development key');
    expect(logged).not.toContain(TEST_KEY);
  });

  test('a key whose plan the --plans file lacks: a warning at start naming key and plan, then 403 naming the plan on REST and the stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-plans-'));
    try {
      const created = await runMds('keys', 'create', '--json', '--plan', 'free', '--data-dir', dir);
      const { id, key } = JSON.parse(created.out) as { id: string; key: string };
      const plansFile = join(dir, 'plans.json');
      writeFileSync(plansFile, JSON.stringify({ plans: [{ name: 'team', description: 'test', classes: ['crypto'], quota: 1000, quota_window_days: 30, per_minute: null, stream_connections: 1, stream_subscriptions: 5, addons: [] }] }));
      await using own = await startServer({ dataDir: dir, args: ['--feed', 'none', '--plans', plansFile] });
      expect(own.logs.find((l) => l.includes(id))).toBe(`warning: key ${id} has plan "free", which the plans table does not have: its calls get 403 until the plan is added or the key updated`);
      const message = `this API key's plan "free" is not offered by this server (its plans table has no such plan): ask the operator`;
      const res = await own.get('/crypto/symbols', { key });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe(message);
      const up = await fetch(`${own.base}/?apiKey=${key}`, { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } });
      expect(up.status).toBe(403);
      expect(((await up.json()) as { error: string }).error).toBe(message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an invalid plans file names the allowed classes and add-ons', async () => {
    {
      const dir = mkdtempSync(join(tmpdir(), 'mds-plans-'));
      try {
        const plansFile = join(dir, 'plans.json');
        writeFileSync(plansFile, JSON.stringify({ plans: [{ name: 'x', description: 'd', classes: ['crypto', 'bitcoin'], quota: 5, quota_window_days: 30, per_minute: null, stream_connections: 1, stream_subscriptions: 1, addons: ['astrology'] }] }));
        const r = await runMds('keys', 'list', '--plans', plansFile, '--data-dir', dir);
        expect(r.code).toBe(2);
        expect(r.err).toContain('/plans/0/classes/1: Expected union value (allowed classes: crypto, forex, stocks, indices, etfs, commodities, perpetuals)');
        expect(r.err).toContain('/plans/0/addons/0: Expected union value (allowed add-ons: fundamentals, bonds, overnight)');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
