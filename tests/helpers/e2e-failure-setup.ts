// Runs before each browser test file: a failed test prints what its open pages show (tests/helpers/browser.ts).
import { beforeEach } from 'vitest';
import { describeOpenPages } from './browser';

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    const described = await describeOpenPages(task.name);
    if (described) console.error(`\nÀ l’échec de « ${task.name} » :\n${described}`);
  });
});
