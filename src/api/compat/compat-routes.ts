// The compatibility layer's face to the app: the vendor dialects the gate and the error handler
// use under /compat/, and the vendors' route groups. Each vendor lives in its own folder.
import type { ApiDeps } from '../deps.ts';
import { COMPAT_PREFIX, dialectOfPath, NATIVE_DIALECT, type CompatDialect, type GateDialect } from '../plugins/gate.ts';
import { ALPACA_DIALECT, ALPACA_PREFIX } from './alpaca/dialect.ts';
import { isKeylessCryptoPath, KEYLESS_CRYPTO_ACCOUNT } from './alpaca/keyless.ts';
import { alpacaRoutes } from './alpaca/routes.ts';
import { MASSIVE_DIALECT, MASSIVE_PREFIX } from './massive/dialect.ts';
import { massiveIndicatorRoutes } from './massive/indicators.ts';
import { massiveRoutes } from './massive/routes.ts';
import { massiveTickRoutes } from './massive/tick-routes.ts';
import { alpacaTickRoutes } from './alpaca/tick-routes.ts';

export const COMPAT_DIALECTS: readonly CompatDialect[] = [
  { prefix: MASSIVE_PREFIX, dialect: MASSIVE_DIALECT },
  { prefix: ALPACA_PREFIX, dialect: ALPACA_DIALECT },
];

/** The dialects with Alpaca's crypto data served keyless (`--keyless-crypto`). */
export const COMPAT_DIALECTS_KEYLESS_CRYPTO: readonly CompatDialect[] = [
  { prefix: MASSIVE_PREFIX, dialect: MASSIVE_DIALECT },
  { prefix: ALPACA_PREFIX, dialect: { ...ALPACA_DIALECT, keyless: { allows: isKeylessCryptoPath, account: KEYLESS_CRYPTO_ACCOUNT } } },
];

/** The vendor dialect of a path, or null for a native path (errors then render natively). */
export function compatDialectOf(path: string): GateDialect | null {
  if (!path.startsWith(COMPAT_PREFIX)) return null;
  const dialect = dialectOfPath(path, COMPAT_DIALECTS);
  return dialect === NATIVE_DIALECT ? null : dialect;
}

export const compatRouteGroups = (deps: ApiDeps) => [massiveRoutes(deps), massiveIndicatorRoutes(deps), alpacaRoutes(deps), massiveTickRoutes(deps), alpacaTickRoutes(deps)] as const;
