// `npm run dev`: the server restarts on change (tsx watch) and Vite serves the SPA with HMR on the same port.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const panda = spawn(path.join(root, 'node_modules/.bin/panda'), ['--watch', '--silent'], { cwd: root, stdio: 'inherit' });
const server = spawn(
  path.join(root, 'node_modules/.bin/tsx'),
  ['watch', '--clear-screen=false', '--exclude', 'src/client/**', 'src/server/main.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development' },
  },
);
// tsx must be stopped with SIGTERM: SIGKILL would orphan its child server (STACK.md).
const stop = () => {
  server.kill('SIGTERM');
  panda.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => {
  panda.kill('SIGTERM');
  process.exit(code ?? 0);
});
