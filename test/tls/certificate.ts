// Self-signed test certificates made at test time with the system's openssl (none is committed):
// EC P-256 for CN=localhost, valid for localhost and 127.0.0.1, usable as its own CA by clients.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** The PEM text of the certificate: the CA a client trusts it by. */
  cert: string;
  fingerprint256: string;
  serial: string;
}

/** Writes `<name>.crt` and `<name>.key` into `dir`. */
export function makeCertificate(dir: string, name: string): TestCertificate {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  const made = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stderr: 'pipe', stdout: 'pipe' });
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  const cert = readFileSync(certFile, 'utf8');
  const x509 = new X509Certificate(cert);
  return { certFile, keyFile, cert, fingerprint256: x509.fingerprint256, serial: x509.serialNumber };
}
