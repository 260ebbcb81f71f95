// The yardstick of the scale bench: node:http + better-sqlite3 prepared statements doing, for each path, what the app
// does on the same request, with nothing else: the session lookup (the same statement, on the SHA-256 of the cookie's
// token, refused as the app refuses it), then the SQL statements the app's procedure ran for that path (captured by
// scripts/bench/scale.ts), answering the app's own answer as JSON (captured with them: the same bytes on the wire, with
// no rows mapped to it), with the headers every answer of the app carries (its security headers, no-store, a request
// id of its own: the product's, not the door's). Where the app keeps a path's answers between requests (`meta.kept`), this handler keeps its
// JSON too, until SQLite's data_version says another connection wrote.
import fs from 'node:fs';
import http from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const db = new Database(process.env.BENCH_DB, { readonly: true });
const captured = JSON.parse(fs.readFileSync(process.env.BENCH_ROUTES, 'utf8'));
const parameterOf = (p) => (p !== null && typeof p === 'object' && 'bigint' in p ? BigInt(p.bigint) : p);
const prepare = (statements) => statements.map((s) => ({ statement: db.prepare(s.sql), parameters: s.parameters.map(parameterOf) }));
const routes = new Map(captured.routes.map((r) => [r.path, { statements: prepare(r.statements), kept: r.kept, answer: r.answer }]));
const [sessionLookup] = prepare(captured.lookup.statements);
/** The app's headers of every answer, as name, value, name, value… (absent: none). */
const everyAnswer = captured.everyAnswer ?? [];
const dataVersion = db.prepare('pragma data_version').pluck();
/** path → { version, body }: the kept answers. */
const kept = new Map();

const run = (statements) =>
  statements.map((s) => (s.statement.reader ? s.statement.all(...s.parameters) : s.statement.run(...s.parameters)));

function answer(res, status, body) {
  res.writeHead(status, [
    ...everyAnswer,
    'X-Request-Id',
    randomUUID(),
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(body)),
  ]);
  res.end(body);
}

const server = http.createServer((req, res) => {
  const route = routes.get(req.url);
  if (!route) return answer(res, 404, '{"messages":"Ressource introuvable"}');
  const token = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const session = token && sessionLookup.statement.get(createHash('sha256').update(token).digest('hex'));
  if (!session || Date.parse(session.expires_at) <= Date.now()) return answer(res, 401, '{"messages":"Veuillez vous connecter"}');
  if (!route.kept) {
    run(route.statements);
    return answer(res, 200, JSON.stringify(route.answer));
  }
  const version = dataVersion.get();
  const found = kept.get(req.url);
  if (found && found.version === version) return answer(res, 200, found.body);
  run(route.statements);
  const body = JSON.stringify(route.answer);
  kept.set(req.url, { version, body });
  answer(res, 200, body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
