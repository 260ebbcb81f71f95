// The yardstick of the scale bench: node:http + better-sqlite3 prepared statements running, for each path, the SQL
// statements the app ran for it in-process (captured by scripts/bench/scale.ts), answering their rows as JSON.
import fs from 'node:fs';
import http from 'node:http';
import Database from 'better-sqlite3';

const db = new Database(process.env.BENCH_DB, { readonly: true });
const routes = new Map(
  JSON.parse(fs.readFileSync(process.env.BENCH_ROUTES, 'utf8')).map((r) => [
    r.path,
    r.statements.map((s) => ({
      statement: db.prepare(s.sql),
      parameters: s.parameters.map((p) => (p !== null && typeof p === 'object' && 'bigint' in p ? BigInt(p.bigint) : p)),
    })),
  ]),
);

const server = http.createServer((req, res) => {
  const statements = routes.get(req.url);
  if (!statements) {
    res.writeHead(404);
    return res.end();
  }
  const results = statements.map((s) => (s.statement.reader ? s.statement.all(...s.parameters) : s.statement.run(...s.parameters)));
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(results));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
