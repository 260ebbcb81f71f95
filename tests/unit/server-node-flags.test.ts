import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** package.json and the Dockerfile cannot import the flags and environment: they repeat them, and must repeat all. */
describe('the flags node runs the server with', () => {
  it('are the same for npm start as in scripts/server-node-flags.mjs', () => {
    const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
    const env = Object.entries(SERVER_NODE_ENV).map(([name, value]) => `${name}=${value}`);
    expect(start).toBe(`${env.join(' ')} node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.mjs`);
  });

  it("are the same for the Docker image's CMD", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    expect(cmd && JSON.parse(cmd)).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/server/main.js']);
  });

  it("set the same environment in the Docker image's ENV", () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    for (const [name, value] of Object.entries(SERVER_NODE_ENV))
      expect(finalStage).toMatch(new RegExp(`^(ENV)?\\s+${name}=${value}\\b`, 'm'));
  });
});
