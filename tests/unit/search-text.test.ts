import { describe, expect, it } from 'vitest';
import { foldForSearch, matchesSearch } from '../../src/shared/search-text';

describe('searching a list by label', () => {
  it('ignores case and accents', () => {
    expect(foldForSearch('École Émile-Zola')).toBe('ecole emile-zola');
    expect(matchesSearch('École', 'ecole')).toBe(true);
    expect(matchesSearch('Franc guinéen', 'GUINEEN')).toBe(true);
    expect(matchesSearch('États-Unis', 'etats')).toBe(true);
  });

  it('finds a part anywhere, trims the query, and keeps everything for an empty one', () => {
    expect(matchesSearch('CHF — Franc suisse', 'franc su')).toBe(true);
    expect(matchesSearch('France', '  fra ')).toBe(true);
    expect(matchesSearch('France', '')).toBe(true);
    expect(matchesSearch('France', 'zzz')).toBe(false);
    expect(matchesSearch('Franc suisse', 'suisse franc')).toBe(false);
  });
});
