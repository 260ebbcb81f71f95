import { describe, expect, it } from 'vitest';
import {
  componentCssCalls,
  documentFieldFiles,
  migrationImports,
  OUTSIDE_DOCUMENT,
  TRACKER_FOLDERS,
  TRACKER_REFERENCE,
  textMentions,
  unlayeredServerModules,
  upwardImports,
} from '../../scripts/code-shape';

// Each test parses every server file: seconds on a loaded machine.
describe('the shape of src/server', () => {
  it('imports only from its own layer or below', () => {
    expect(upwardImports('.').map(({ file, what }) => `${file} ${what}`)).toEqual([]);
  });

  it('places every folder and top-level module in a layer', () => {
    expect(unlayeredServerModules('.')).toEqual([]);
  });

  it('has migrations that carry their own logic', () => {
    expect(migrationImports('.').map(({ file, what }) => `${file} ${what}`)).toEqual([]);
  });

  it('says what it means without pointing at the tracker or at documents outside the repository', () => {
    const where = (findings: { file: string; line: number; what: string }[]) =>
      findings.map(({ file, line, what }) => `${file}:${line} ${what}`);
    expect(where(textMentions('.', TRACKER_REFERENCE, TRACKER_FOLDERS))).toEqual([]);
    expect(where(textMentions('.', OUTSIDE_DOCUMENT))).toEqual([]);
  });
});

describe('the shape of src/client', () => {
  it('styles the Ark components through the theme’s recipes, never with css() beside them', () => {
    expect(componentCssCalls('.').map(({ file, line }) => `${file}:${line}`)).toEqual([]);
  });
});

// A document field is added in the places docs/ARCHITECTURE.md lists: one pure save (shared/document-save.ts) for the
// server, both editors and the preview keeps them to five; a sixth place fails here.
describe('the recipe for a document field', () => {
  it('lists five places at most', () => {
    expect(documentFieldFiles('.')).toBeLessThanOrEqual(5);
  });
});
