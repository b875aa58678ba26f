export { ROUTE_TABLE } from './table.ts';
export { CLASS_EXAMPLES } from './class-rows.ts';
export { openApiPath, type ErrorExample, type ErrorStatus, type RouteRow } from './row.ts';
