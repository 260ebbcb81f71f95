import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { exemptionChoice, VAT_EXEMPTION_BASES } from '../../../../shared/vat-exemptions';
import { clearError, editor } from '../../../stores/document-editor';
import { Input } from '../../../components/ui/field';
import { Select } from '../../../components/ui/select';
import { draft } from './form-state';

const CHOICES = [
  { value: '', label: 'Aucune (lignes avec TVA)' },
  ...VAT_EXEMPTION_BASES.map((b) => ({ value: b.id, label: b.label })),
  { value: 'other', label: 'Autre base (texte libre)' },
];

const styles = {
  field: css({ display: 'flex', flexDirection: 'column', gap: '1.5' }),
  // A legend stands outside the fieldset's flex flow: its own margin spaces it.
  label: css({ fontSize: 'sm', fontWeight: '600', mb: '1.5' }),
  row: css({ display: 'flex', flexDirection: 'column', gap: '2' }),
  error: css({ fontSize: 'xs', color: 'danger' }),
  hint: css({ fontSize: 'xs', color: 'fg.muted' }),
};

/**
 * "Exonération de TVA": the legal basis of lines without VAT (CGI art. 242 nonies A, 13°), chosen from the usual
 * bases (shared list) or typed freely. The chosen basis fills the text, which stays editable.
 */
export function VatExemptionField({ readOnly }: { readOnly?: boolean }) {
  const snap = useSnapshot(editor, { sync: true });
  const text = snap.form?.vat_exemption ?? '';
  const error = snap.errors.vat_exemption;
  const choice = exemptionChoice(text);
  const write = (value: string) => {
    clearError('vat_exemption');
    draft().vat_exemption = value;
  };
  return (
    // Two controls under one visible label (a basis to pick, its text to adjust): a group named by that legend, each
    // control named on its own; the text is the field, so it carries the hint or the error.
    <fieldset className={styles.field}>
      <legend id="vat-exemption-label" className={styles.label}>
        Exonération de TVA
      </legend>
      <div className={styles.row}>
        <Select
          aria-label="Base légale de l’exonération"
          value={choice}
          options={CHOICES}
          disabled={readOnly}
          onChange={(picked) => {
            const basis = VAT_EXEMPTION_BASES.find((b) => b.id === picked);
            // Free text keeps what was typed, unless it was a listed basis' text.
            if (basis) write(basis.text);
            else if (picked === '' || choice !== 'other') write('');
          }}
        />
        <Input
          aria-labelledby="vat-exemption-label"
          aria-describedby="vat-exemption-help"
          value={text}
          onChange={(e) => write(e.target.value)}
          readOnly={readOnly}
          placeholder="Pour des lignes sans TVA : ex. Exonération de TVA, art. 261-4-4° du CGI"
          aria-invalid={error ? true : undefined}
        />
      </div>
      {error ? (
        <span id="vat-exemption-help" className={styles.error}>
          {error}
        </span>
      ) : (
        <span id="vat-exemption-help" className={styles.hint}>
          Client établi hors de France et lignes sans TVA : la mention légale (art. 259-1, 262 I, 262 ter I ou 283-2 du CGI) s’ajoute
          d’elle-même quand elle s’applique.
        </span>
      )}
    </fieldset>
  );
}
