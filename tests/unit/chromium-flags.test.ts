import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { chromiumFlags, PLAYWRIGHT_DISABLED_FEATURES } from '../../src/server/pdf/pdf-renderer';

/** The features the installed playwright-core turns off, read from its bundle's `disabledFeatures = [ … ]`. */
function playwrightDisabledFeatures(): string[] {
  const bundle = fs.readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]/.exec(bundle)?.[1] ?? '';
  return [...list.replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
}

describe('the Chromium flags', () => {
  it('repeat every feature Playwright turns off: Chromium keeps only the last --disable-features', () => {
    const theirs = playwrightDisabledFeatures();
    expect(theirs.length, 'playwright-core no longer lists its features where this test reads them').toBeGreaterThan(5);
    expect(theirs.filter((feature) => !PLAYWRIGHT_DISABLED_FEATURES.includes(feature))).toEqual([]);
  });

  it('pass one --disable-features, which turns off the address bar popups as well', () => {
    const switches = chromiumFlags(false).filter((flag) => flag.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    const features = (switches[0] as string).slice('--disable-features='.length).split(',');
    expect(features).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
  });
});
