// Prints every REST route of the route table with its example requests, as curl lines against a
// running server: the same requests the contract test makes. Usage: bun scripts/route-examples.ts [BASE_URL]
import { ROUTE_TABLE } from '../src/api/route-table/index.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
for (const row of ROUTE_TABLE) {
  console.log(`# GET ${row.path}: ${row.summary}`);
  const key = row.isOpen ? '' : '-H "x-api-key: $KEY" ';
  for (const example of row.examples) console.log(`curl ${key}'${base}${example}'`);
}
