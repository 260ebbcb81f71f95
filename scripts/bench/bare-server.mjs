// The yardstick of the API bench: node:http + better-sqlite3 prepared statements running the same queries as
// `auth.me` (session by SHA-256 of the cookie token, then the user joined to membership and organisation).
import http from 'node:http';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

const db = new Database(process.env.BENCH_DB, { readonly: true });
const findSession = db.prepare('select id, user_id, organization_id, expires_at from sessions where id = ?');
const findUser = db.prepare(`select u.id, u.first_name, u.last_name, u.email, u.email_verified_at, u.created_at, m.role,
  o.id as organization_id, o.name as organization_name
  from users u join memberships m on m.user_id = u.id join organizations o on o.id = m.organization_id
  where u.id = ? and m.organization_id = ?`);

const server = http.createServer((req, res) => {
  const token = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const session = token && findSession.get(createHash('sha256').update(token).digest('hex'));
  if (!session || session.expires_at <= new Date().toISOString()) {
    res.writeHead(401, { 'content-type': 'application/json' });
    return res.end('{"messages":"Veuillez vous connecter"}');
  }
  const { organization_id, organization_name, ...user } = findUser.get(session.user_id, session.organization_id);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ ...user, organization: { id: organization_id, name: organization_name } }));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
