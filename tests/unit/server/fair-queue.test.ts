import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../../src/server/pdf/pdf-renderer';

describe('FairQueue (the PDF renderer’s waiting renders)', () => {
  it('serves the waiting organisations in turn, each one’s renders in their order', () => {
    const queue = new FairQueue<string>();
    for (let i = 1; i <= 4; i++) queue.push('gros', `gros-${i}`);
    queue.push('petit', 'petit-1');
    queue.push('autre', 'autre-1');
    queue.push('petit', 'petit-2');
    expect(queue.size).toBe(7);
    const served: (string | undefined)[] = [];
    while (queue.size > 0) served.push(queue.shift());
    expect(served).toEqual(['gros-1', 'petit-1', 'autre-1', 'gros-2', 'petit-2', 'gros-3', 'gros-4']);
    expect(queue.shift()).toBeUndefined();
  });

  it('puts an organisation that arrives while others wait after those already in the rotation', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a-1');
    queue.push('a', 'a-2');
    queue.push('b', 'b-1');
    expect(queue.shift()).toBe('a-1');
    queue.push('c', 'c-1');
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual(['b-1', 'a-2', 'c-1']);
  });
});
