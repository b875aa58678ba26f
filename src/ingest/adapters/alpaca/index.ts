export { ALPACA_CRYPTO, ALPACA_STOCKS } from './protocol.ts';
