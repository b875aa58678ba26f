// One real `mds serve --tls-cert --tls-key` (a child process, so it can get SIGHUP) with a
// self-signed certificate made by openssl: REST, the console and Massive's next_url over https, the
// native stream over wss, the Alpaca SDK 3 data_stream_v2 over wss, and a SIGHUP that serves a new
// certificate to new connections while an open WebSocket goes on receiving.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import tls from 'node:tls';
import { tempDir, type TempDir } from '../support/temp-dir.ts';
import { connect } from '../support/ws-client.ts';
import { makeCertificate, type TestCertificate } from './certificate.ts';
import { spawnTlsServer, type TlsChild } from './tls-server.ts';

let dir: TempDir;
let first: TestCertificate;
let server: TlsChild;
/** The files the server reads: a copy of the first certificate, replaced in place by the reload test. */
let certFile: string;
let keyFile: string;

beforeAll(async () => {
  dir = tempDir('mds-tls-');
  first = makeCertificate(dir.path, 'first');
  certFile = join(dir.path, 'served.crt');
  keyFile = join(dir.path, 'served.key');
  copyFileSync(first.certFile, certFile);
  copyFileSync(first.keyFile, keyFile);
  server = await spawnTlsServer(join(dir.path, 'data'), certFile, keyFile);
}, 120_000);
afterAll(async () => {
  await server?.[Symbol.asyncDispose]();
  dir?.[Symbol.dispose]();
});

/** fetch over https trusting the test certificate as its CA (the handshake is verified, not skipped). */
const get = (path: string, ca: string = first.cert) => fetch(`${server.base}${path}`, { headers: { 'x-api-key': server.key }, tls: { ca } });

/** The certificate a new TLS connection to the port is handed. */
function servedCertificate(): Promise<tls.PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: server.port, servername: 'localhost', rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate());
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('https', () => {
  test('the startup log names https and wss and the certificate', () => {
    expect(server.output()).toContain(`serving REST on ${server.base}`);
    expect(server.output()).toContain(`streaming on ${server.wsBase}/`);
    expect(server.output()).toContain(`TLS: certificate CN=localhost, serial ${first.serial}`);
  });

  test('REST answers over https, verified against the certificate', async () => {
    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
    const quote = await get('/crypto/quote/BTCUSD');
    expect(quote.status).toBe(200);
    expect(((await quote.json()) as { symbol: string }).symbol).toBe('BTCUSD');
  });

  test('the AsyncAPI document names wss for this server', async () => {
    const res = await get('/asyncapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { servers: { mds: { protocol: string; description: string } } };
    expect(doc.servers.mds.protocol).toBe('wss');
    expect(doc.servers.mds.description).toContain('over TLS');
  });

  test('plain http on the TLS port gets no answer', async () => {
    await expect(fetch(`http://127.0.0.1:${server.port}/health`)).rejects.toThrow();
  });

  test('the console page is served over https', async () => {
    const res = await get('/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('<html');
  });

  test("Massive's next_url keeps the https scheme the client used, and following it works", async () => {
    const path = '/compat/massive/v2/aggs/ticker/X:BTCUSD/range/1/minute/2026-03-03/2026-03-04?limit=2';
    const page = (await (await get(path)).json()) as { results: unknown[]; next_url: string };
    expect(page.results).toHaveLength(2);
    expect(page.next_url.startsWith(`${server.base}/compat/massive/v2/aggs/`)).toBe(true);
    const next = await fetch(page.next_url, { headers: { 'x-api-key': server.key }, tls: { ca: first.cert } });
    expect(next.status).toBe(200);
    expect(((await next.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });
});

test('behind a TLS-ending proxy, next_url follows X-Forwarded-Proto and X-Forwarded-Host', async () => {
  const path = '/compat/massive/v2/aggs/ticker/X:BTCUSD/range/1/minute/2026-03-03/2026-03-04?limit=2';
  const res = await fetch(`${server.base}${path}`, { headers: { 'x-api-key': server.key, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'md.example.com' }, tls: { ca: first.cert } });
  expect(((await res.json()) as { next_url: string }).next_url).toStartWith('https://md.example.com/compat/massive/v2/aggs/ticker/');
});

describe('wss', () => {
  test('the native stream over wss delivers a quote', async () => {
    await using ws = await connect(`${server.wsBase}/?apiKey=${server.key}`, { tls: { ca: first.cert } });
    await ws.next((m) => m.type === 'ready');
    ws.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    await ws.next((m) => m.type === 'subscribed');
    const quote = await ws.next((m) => m.type === 'quote');
    expect(quote.symbol).toBe('BTCUSD');
    expect(quote.bid).toBeGreaterThan(0);
  });

  test('the Alpaca SDK 3 data_stream_v2 connects over wss and receives trades and quotes', async () => {
    const sdk = Bun.spawn([process.execPath, join(import.meta.dir, 'alpaca-sdk3-stream.ts'), `${server.base}/compat/alpaca`, server.key, 'AAPL'], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: first.certFile },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [code, out, err] = await Promise.all([sdk.exited, new Response(sdk.stdout as ReadableStream).text(), new Response(sdk.stderr as ReadableStream).text()]);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const events = out.trim().split('\n').map((line) => JSON.parse(line) as { event: string; value: any });
    // The SDK itself turned the https base into the wss URL it dialed.
    expect(events[0]).toEqual({ event: 'connected', value: `${server.wsBase}/compat/alpaca/v2/iex` });
    const trade = events.find((e) => e.event === 'trade')!.value;
    const quote = events.find((e) => e.event === 'quote')!.value;
    expect(trade.Symbol).toBe('AAPL');
    expect(trade.Price).toBeGreaterThan(0);
    expect(quote.Symbol).toBe('AAPL');
    expect(quote.AskPrice).toBeGreaterThanOrEqual(quote.BidPrice);
  });
});

describe('certificate reload on SIGHUP', () => {
  test('new connections get the new certificate, an open WebSocket goes on, a bad file keeps the served one', async () => {
    expect((await servedCertificate()).fingerprint256).toBe(first.fingerprint256);
    await using open = await connect(`${server.wsBase}/?apiKey=${server.key}`, { tls: { ca: first.cert } });
    await open.next((m) => m.type === 'ready');
    open.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    await open.next((m) => m.type === 'subscribed');

    const second = makeCertificate(dir.path, 'second');
    expect(second.fingerprint256).not.toBe(first.fingerprint256);
    copyFileSync(second.certFile, certFile);
    copyFileSync(second.keyFile, keyFile);
    const logged = server.output().length;
    server.proc.kill('SIGHUP');
    await server.waitForOutput(/TLS reloaded: new connections get the certificate/, logged);

    expect((await servedCertificate()).fingerprint256).toBe(second.fingerprint256);
    // Verified handshakes: the new certificate is trusted as itself, the old one no longer is.
    expect((await get('/health', second.cert)).status).toBe(200);
    await expect(get('/health', first.cert)).rejects.toThrow();
    // The connection opened before the reload is still open and still gets what is published.
    open.messages.length = 0;
    const quote = await open.next((m) => m.type === 'quote');
    expect(quote.symbol).toBe('BTCUSD');
    expect(open.ws.readyState).toBe(WebSocket.OPEN);
    // A new stream connection after the reload works too.
    await using fresh = await connect(`${server.wsBase}/?apiKey=${server.key}`, { tls: { ca: second.cert } });
    await fresh.next((m) => m.type === 'ready');

    // A reload from a broken key file fails loudly and keeps serving the second certificate.
    writeFileSync(keyFile, 'not a key\n');
    const beforeBad = server.output().length;
    server.proc.kill('SIGHUP');
    const failed = await server.waitForOutput(/TLS reload failed: (.*)\n/, beforeBad);
    expect(failed[1]).toContain(`--tls-key ${keyFile} is not an unencrypted PEM private key`);
    expect(failed[1]).toContain(`still serving the certificate CN=localhost, serial ${second.serial}`);
    expect((await servedCertificate()).fingerprint256).toBe(second.fingerprint256);
    expect((await get('/health', second.cert)).status).toBe(200);
    expect(server.proc.exitCode).toBeNull();
  });
});

test('SIGTERM after a reload stops cleanly, the retired listener with the current one', async () => {
  server.proc.kill('SIGTERM');
  expect(await server.proc.exited).toBe(0);
  expect(server.output()).toContain('stopped; everything written is on disk');
});
