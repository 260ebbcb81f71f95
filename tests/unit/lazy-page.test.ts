// A page, the shell or the data layer downloaded ahead (beside the session check, on hover) must draw in the render that
// first asks for it: a Suspense fallback there is a frame of skeleton, and React reveals what follows up to 300 ms later.
import { type ComponentType, createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyPage } from '../../src/client/lib/lazy-page';

const Greeting = () => createElement('p', null, 'Bonjour');
const drawn = (Component: ComponentType) =>
  renderToString(createElement(Suspense, { fallback: createElement('span', null, 'Chargement') }, createElement(Component)));

describe('lazy pages', () => {
  it('draw at once when their code came before their first render', async () => {
    const part = lazyPage(
      async () => ({ Greeting }),
      (m) => m.Greeting,
    );
    expect(part.loaded?.()).toBeUndefined();
    await part.preload();
    expect(part.loaded?.()).toBe(Greeting);
    expect(drawn(part.Component)).toContain('Bonjour');
  });

  it('show the fallback while their code is still coming', () => {
    const part = lazyPage(
      () => new Promise<{ Greeting: typeof Greeting }>(() => undefined),
      (m) => m.Greeting,
    );
    const html = drawn(part.Component);
    expect(html).toContain('Chargement');
    expect(html).not.toContain('Bonjour');
  });
});
