// Runs before each browser test file: a failed test prints what its open pages show (tests/helpers/browser.ts).
import { beforeEach } from 'vitest';
import { reportOpenPages } from './browser';

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => reportOpenPages(`${task.file.name.replace(/^tests\/e2e\//, '')} › ${task.name}`));
});
