// What `mds serve` says, before it touches the data dir, when its TLS flags cannot serve: exit
// code 2 (as every configuration error) and a message naming the flag or the file. And one start
// that goes through, with a SIGHUP sent before the port opens.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMds, runMdsWith } from '../support/cli.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';
import { makeCertificate, type TestCertificate } from './certificate.ts';
import { startTlsChild } from './tls-server.ts';

let dir: TempDir;
let cert: TestCertificate;
let other: TestCertificate;
let dataDir: string;
beforeAll(() => {
  dir = tempDir('mds-tls-start-');
  cert = makeCertificate(dir.path, 'one');
  other = makeCertificate(dir.path, 'other');
  dataDir = join(dir.path, 'data');
});
afterAll(() => dir[Symbol.dispose]());

/** `mds serve` that must refuse to start: the data dir is never made. */
async function refused(env: Record<string, string>, ...args: string[]): Promise<string> {
  const r = await runMdsWith(env, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...args);
  expect({ code: r.code, out: r.out }).toEqual({ code: 2, out: '' });
  expect(existsSync(dataDir)).toBe(false);
  return r.err;
}

describe('both flags or neither', () => {
  test('--tls-cert without --tls-key names the missing flag', async () => {
    expect(await refused({}, '--tls-cert', cert.certFile)).toBe('mds: --tls-cert needs --tls-key FILE (MDS_TLS_KEY): the PEM private key of the certificate\n');
  });

  test('MDS_TLS_KEY without a certificate names --tls-cert', async () => {
    expect(await refused({ MDS_TLS_KEY: cert.keyFile })).toBe('mds: --tls-key needs --tls-cert FILE (MDS_TLS_CERT): the PEM certificate of the key\n');
  });
});

describe('files that cannot serve', () => {
  test('a certificate file that does not exist', async () => {
    const missing = join(dir.path, 'missing.crt');
    expect(await refused({}, '--tls-cert', missing, '--tls-key', cert.keyFile)).toStartWith(`mds: --tls-cert ${missing} cannot be read: `);
  });

  test('a certificate file that is not PEM', async () => {
    const bad = join(dir.path, 'bad.crt');
    writeFileSync(bad, 'hello\n');
    expect(await refused({}, '--tls-cert', bad, '--tls-key', cert.keyFile)).toStartWith(`mds: --tls-cert ${bad} is not a PEM certificate (`);
  });

  test('a key file that is not PEM, given by the environment', async () => {
    const bad = join(dir.path, 'bad.key');
    writeFileSync(bad, '-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n');
    expect(await refused({ MDS_TLS_CERT: cert.certFile, MDS_TLS_KEY: bad })).toStartWith(`mds: --tls-key ${bad} is not an unencrypted PEM private key (`);
  });

  test('the key of another certificate', async () => {
    expect(await refused({}, '--tls-cert', cert.certFile, '--tls-key', other.keyFile)).toBe(`mds: --tls-key ${other.keyFile} is not the private key of the certificate in --tls-cert ${cert.certFile}\n`);
  });
});

test('serve --help lists both flags and their environment variables', async () => {
  const r = await runMds('serve', '--help');
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/--tls-cert FILE +PEM certificate .*\n +env MDS_TLS_CERT\n/);
  expect(r.out).toMatch(/--tls-key FILE +PEM private key of --tls-cert\n +env MDS_TLS_KEY\n/);
});

test('a SIGHUP during the start does not end the server: the reload runs once it listens', async () => {
  await using child = startTlsChild(join(dir.path, 'hup-data'), cert.certFile, cert.keyFile);
  // Printed by the start before the port opens (the simulator's first history).
  await child.waitForOutput(/first start: making the recent history/);
  child.proc.kill('SIGHUP');
  const listening = (await child.waitForOutput(/serving REST on https:/)).index;
  const reloaded = (await child.waitForOutput(/TLS reloaded: new connections get the certificate CN=localhost/)).index;
  expect(reloaded).toBeGreaterThan(listening);
  expect(child.proc.exitCode).toBeNull();
}, 120_000);
