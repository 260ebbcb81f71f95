import { describe, expect, it } from 'vitest';
import { countryCode } from '../../src/shared/countries';

describe('countryCode: a free-text country as ISO 3166-1 alpha-2 (EN 16931 BT-40, BT-55)', () => {
  it('reads French, English and own names, codes, whatever the case, accents and hyphens; an empty country is France', () => {
    expect(countryCode('')).toBe('FR');
    expect(countryCode('France')).toBe('FR');
    expect(countryCode('pays-bas')).toBe('NL');
    expect(countryCode('Grèce')).toBe('GR');
    expect(countryCode('Royaume-Uni')).toBe('GB');
    expect(countryCode('Etats Unis')).toBe('US');
    expect(countryCode('Suisse')).toBe('CH');
    expect(countryCode('Côte d’Ivoire')).toBe('CI');
    expect(countryCode('de')).toBe('DE');
  });
  it('answers undefined for what it cannot name', () => {
    expect(countryCode('Atlantide')).toBeUndefined();
    expect(countryCode('XX')).toBeUndefined();
  });
});
