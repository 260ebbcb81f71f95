import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { exemptionChoice, VAT_EXEMPTION_BASES } from '../../../../shared/vat-exemptions';
import { clearError, editor } from '../../../stores/document-editor';
import { inputStyle } from '../../../components/ui/text-field';
import { draft } from './form-state';

const styles = {
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm', fontWeight: '600' }),
  row: css({ display: 'flex', flexDirection: 'column', gap: '2' }),
  error: css({ fontSize: 'xs', color: 'danger', fontWeight: '400' }),
  hint: css({ fontSize: 'xs', color: 'fg.muted', fontWeight: '400' }),
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
    <div className={styles.field}>
      <span id="vat-exemption-label">Exonération de TVA</span>
      <div className={styles.row}>
        <select
          className={inputStyle}
          aria-label="Base légale de l’exonération"
          value={choice}
          disabled={readOnly}
          onChange={(e) => {
            const basis = VAT_EXEMPTION_BASES.find((b) => b.id === e.target.value);
            // Free text keeps what was typed, unless it was a listed basis' text.
            if (basis) write(basis.text);
            else if (e.target.value === '' || choice !== 'other') write('');
          }}
        >
          <option value="">Aucune (lignes avec TVA)</option>
          {VAT_EXEMPTION_BASES.map((b) => (
            <option key={b.id} value={b.id}>
              {b.label}
            </option>
          ))}
          <option value="other">Autre base (texte libre)</option>
        </select>
        <input
          className={inputStyle}
          aria-labelledby="vat-exemption-label"
          value={text}
          onChange={(e) => write(e.target.value)}
          readOnly={readOnly}
          placeholder="Pour des lignes sans TVA : ex. Exonération de TVA, art. 261-4-4° du CGI"
          aria-invalid={error ? true : undefined}
        />
      </div>
      {error ? (
        <span className={styles.error}>{error}</span>
      ) : (
        <span className={styles.hint}>
          Client établi hors de France et lignes sans TVA : la mention légale (art. 259-1, 262 I, 262 ter I ou 283-2 du CGI) s’ajoute
          d’elle-même quand elle s’applique.
        </span>
      )}
    </div>
  );
}
