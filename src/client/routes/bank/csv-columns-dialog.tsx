import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import {
  CSV_COLUMN_ROLE_LABELS,
  CSV_COLUMN_ROLES,
  CSV_DATE_FORMAT_LABELS,
  CSV_DATE_FORMATS,
  type CsvColumnRole,
  type CsvMapping,
  type CsvPreview,
  columnRoles,
  mappingOfRoles,
} from '../../../shared/schemas/bank-csv';
import { plural } from '../../../shared/french';
import { errorInfo, trpc } from '../../trpc';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { listStyles } from '../../components/ui/list';
import { bankError, bankMuted } from './bank-styles';

const FORM_ID = 'bank-csv-columns-form';
const messageOf = (error: unknown) => [errorInfo(error).messages].flat().join(' ');

const ROLE_OPTIONS = CSV_COLUMN_ROLES.map((role) => ({ value: role, label: CSV_COLUMN_ROLE_LABELS[role] }));
const DATE_FORMAT_OPTIONS = CSV_DATE_FORMATS.map((format) => ({ value: format, label: CSV_DATE_FORMAT_LABELS[format] }));
const DECIMAL_OPTIONS = [
  { value: ',', label: 'Virgule (1 234,56)' },
  { value: '.', label: 'Point (1,234.56)' },
];
const ENCODING_OPTIONS = [
  { value: 'windows-1252', label: 'Windows-1252 (la plupart des banques)' },
  { value: 'utf-8', label: 'UTF-8' },
];

const styles = {
  body: css({ display: 'grid', gap: '3' }),
  formats: css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: 'repeat(3, 1fr)' } }),
  table: css({ '& th': { verticalAlign: 'top', minW: '36' }, '& td': { fontSize: 'sm', whiteSpace: 'nowrap' } }),
  columnName: css({ display: 'block', fontSize: 'xs', color: 'fg.muted', mb: '1', fontWeight: '600' }),
  error: bankError,
  muted: bankMuted,
};

export type StatementFile = { filename: string; content_base64: string };
type ImportAnswer = Awaited<ReturnType<ReturnType<typeof trpc.bankAccounts.import.useMutation>['mutateAsync']>>;

/**
 * « Colonnes du relevé »: a CSV on an account whose columns nobody confirmed yet. The guessed role of each column is
 * a select above it, the first lines below; « Importer » sends the file again with the columns chosen, which the
 * account keeps for its next statements; « Annuler » imports nothing.
 */
export function CsvColumnsDialog({
  accountId,
  file,
  preview,
  onClose,
  onImported,
}: {
  accountId: number;
  file: StatementFile;
  preview: CsvPreview;
  onClose: () => void;
  onImported: (answer: ImportAnswer) => void;
}) {
  const [roles, setRoles] = useState<CsvColumnRole[]>(() => columnRoles(preview.mapping, preview.header.length));
  const [formats, setFormats] = useState<Pick<CsvMapping, 'date_format' | 'decimal_separator' | 'encoding'>>({
    date_format: preview.mapping.date_format,
    decimal_separator: preview.mapping.decimal_separator,
    encoding: preview.mapping.encoding,
  });
  const [error, setError] = useState<string>();
  const upload = trpc.bankAccounts.import.useMutation({ meta: { silent: true } });

  const setRole = (index: number, role: CsvColumnRole) => {
    setError(undefined);
    setRoles(roles.map((r, i) => (i === index ? role : r)));
  };

  async function confirm() {
    const chosen = mappingOfRoles(roles, formats);
    if (!chosen.ok) {
      setError(chosen.message);
      return;
    }
    setError(undefined);
    try {
      onImported(await upload.mutateAsync({ id: accountId, ...file, csv_mapping: chosen.mapping }));
    } catch (e) {
      setError(messageOf(e));
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Colonnes du relevé"
      width={880}
      persistent
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          <Button type="submit" form={FORM_ID} loading={upload.isPending}>
            Importer
          </Button>
        </>
      }
    >
      <form
        id={FORM_ID}
        className={styles.body}
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        <p className={styles.muted}>
          {`Vérifiez ce que contient chaque colonne de « ${file.filename} » (${plural(preview.lines, 'opération', 'opérations')}) : ces colonnes seront gardées pour les prochains relevés de ce compte.`}
        </p>
        <div className={styles.formats}>
          <Field label="Format des dates">
            <Select
              value={formats.date_format}
              options={DATE_FORMAT_OPTIONS}
              onChange={(value) => setFormats({ ...formats, date_format: value as CsvMapping['date_format'] })}
            />
          </Field>
          <Field label="Séparateur décimal">
            <Select
              value={formats.decimal_separator}
              options={DECIMAL_OPTIONS}
              onChange={(value) => setFormats({ ...formats, decimal_separator: value as CsvMapping['decimal_separator'] })}
            />
          </Field>
          <Field label="Encodage">
            <Select
              value={formats.encoding}
              options={ENCODING_OPTIONS}
              onChange={(value) => setFormats({ ...formats, encoding: value as CsvMapping['encoding'] })}
            />
          </Field>
        </div>
        <div className={listStyles.tableWrap}>
          <table className={`${listStyles.table} ${styles.table}`}>
            <caption className={styles.muted}>Premières lignes du fichier</caption>
            <thead>
              <tr>
                {preview.header.map((name, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file
                  <th key={index} scope="col">
                    <span className={styles.columnName}>{name || `Colonne ${index + 1}`}</span>
                    <Select
                      size="sm"
                      aria-label={`Contenu de la colonne ${index + 1} « ${name} »`}
                      value={roles[index] ?? 'ignored'}
                      options={ROLE_OPTIONS}
                      searchable={false}
                      onChange={(value) => setRole(index, value as CsvColumnRole)}
                    />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row) => (
                <tr key={row.line}>
                  {preview.header.map((_, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its column's position
                    <td key={index}>{row.cells[index] ?? ''}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
