// The entry of each worker thread: runs the tasks the pool posts, one at a time, and answers with their result.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors';
import type { TaskFailure, WorkerReply, WorkerRequest } from './pool';
import { type TaskName, tasks } from './tasks';

function failureOf(error: unknown): TaskFailure {
  if (error instanceof AppError) return { name: 'AppError', message: error.message, code: error.code, messages: error.messages };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

const port = parentPort;
if (!port) throw new Error('worker.ts runs as a worker thread only');

port.on('message', async ({ id, task, args }: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    const run = tasks[task as TaskName] as (...a: unknown[]) => Promise<unknown>;
    reply = { id, ok: true, value: await run(...args) };
  } catch (error) {
    reply = { id, ok: false, failure: failureOf(error) };
  }
  // Bytes go back without a copy when they own their whole buffer (a PDF of several MB).
  const value = reply.ok ? reply.value : undefined;
  const transfer = value instanceof Uint8Array && value.byteLength === value.buffer.byteLength ? [value.buffer as ArrayBuffer] : [];
  port.postMessage(reply, transfer);
});
