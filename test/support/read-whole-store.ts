// Reads every record of every database in the LMDB file argv[2] straight through lmdb-js, with no
// check before it (Store.open checks first), then commits one write (which reads the free-page
// list). Run as a child process: it dies of SIGBUS when a page LMDB reads lies past the end of the
// file, and prints the number of records when all are read.
import { open } from 'lmdb';

const root = open({ path: process.argv[2]!, compression: false, maxDbs: 32 });
let records = 0;
for (const name of root.getKeys({}) as Iterable<unknown>) {
  const db = root.openDB({ name: String(name), encoding: 'binary', keyEncoding: 'binary' });
  for (const { value } of db.getRange({})) if ((value as Buffer).length >= 0) records++;
}
root.openDB({ name: 'meta', encoding: 'msgpack' }).putSync('read-whole-store', records);
console.log(`records ${records}`);
await root.close();
