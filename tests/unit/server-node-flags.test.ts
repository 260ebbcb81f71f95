import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** package.json and the Dockerfile cannot import the list of flags: they repeat it, and must repeat all of it. */
describe('the flags node runs the server with', () => {
  it('are the same for npm start as in scripts/server-node-flags.mjs', () => {
    const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
    expect(start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.mjs`);
  });

  it("are the same for the Docker image's CMD", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    expect(cmd && JSON.parse(cmd)).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/server/main.js']);
  });
});
