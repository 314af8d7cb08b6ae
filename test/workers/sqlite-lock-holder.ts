// Another OS process on the same SQLite file, for test/sqlite-writers.test.ts: takes the write
// lock when told `lock` and lets it go when told `release`, answering each on stdout.
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';

const db = new Database(process.argv[2] ?? '');
const say = (line: string) => process.stdout.write(`${line}\n`);
say('ready');
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'lock') {
    db.exec('BEGIN IMMEDIATE');
    say(`locked ${process.pid}`);
  } else if (line === 'release') {
    db.exec('COMMIT');
    say('released');
  }
}
db.close();
