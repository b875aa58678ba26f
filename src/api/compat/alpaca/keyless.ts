// Alpaca's crypto market data needs no key, so the vendor's SDK (the top-level `Alpaca` client)
// sends none on crypto data requests. mds can take those requests keyless, as an account that may
// read crypto only, metered per client address by the server's keyless limiter (the one that
// limits requests with a missing or bad key): `--keyless-crypto` says whether it does.
import type { Account } from '../../../domain/account.ts';
import { ANONYMOUS_PER_MINUTE } from '../../../auth/authenticator.ts';
import { ALPACA_PREFIX } from './dialect.ts';

/** The paths served without a key when keyless crypto is on: the crypto market data routes. */
export const KEYLESS_CRYPTO_PREFIX = `${ALPACA_PREFIX}/v1beta3/crypto/`;

export const isKeylessCryptoPath = (path: string): boolean => path.startsWith(KEYLESS_CRYPTO_PREFIX);

/** The account a keyless crypto request runs as: crypto only, no stream, no add-ons. */
export const KEYLESS_CRYPTO_ACCOUNT: Account = {
  id: 'keyless',
  plan: {
    name: 'keyless',
    description: 'keyless Alpaca crypto data requests (--keyless-crypto): crypto only, limited per client address',
    classes: ['crypto'],
    quota: 1e12,
    quota_window_days: 30,
    per_minute: ANONYMOUS_PER_MINUTE,
    stream_connections: 0,
    stream_subscriptions: 0,
    addons: [],
  },
  markets: new Set(),
  addons: new Set(),
  createdMs: 0,
};
