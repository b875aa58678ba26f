export { MASSIVE_CRYPTO, MASSIVE_FOREX, MASSIVE_STOCKS } from './protocol.ts';
