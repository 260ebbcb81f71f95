import type { TestProject } from 'vitest/node';
import { ensureClientBuild } from '../../scripts/build-if-stale.mjs';
import { provideSqliteTemplate } from '../helpers/template-database';

/**
 * The browser tests run against the built SPA, as users get it: build it first when missing or stale. Each file's
 * server starts from one migrated SQLite file.
 */
export default async function setup(project: TestProject) {
  await ensureClientBuild();
  return provideSqliteTemplate((key, value) => project.provide(key, value));
}
