import { ROUTE_TABLE } from './table.ts';

export { ROUTE_TABLE };
/** The routes of mds's own API: every row but the vendor dialects' (under /compat/). */
export const NATIVE_ROUTES = ROUTE_TABLE.filter((row) => !row.path.startsWith('/compat/'));
export { CLASS_EXAMPLES } from './class-rows.ts';
export { openApiPath, type ErrorExample, type ErrorStatus, type RouteRow } from './row.ts';
