import { css } from '../../../../../styled-system/css';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';

const stored = css({ display: 'flex', flexDirection: 'column', gap: '1.5', fontSize: 'sm', border: 'none', p: '0', m: '0', minW: '0' });
const storedRow = css({ display: 'flex', alignItems: 'center', gap: '3', minH: '10' });
const badge = css({ px: '2', py: '0.5', borderRadius: 'md', bg: 'successSubtle', color: 'success', fontWeight: '600' });

/**
 * A secret the server keeps and never sends back: « enregistré » while one is stored and none is being typed;
 * « Remplacer » opens an empty field whose value replaces it on save (left empty, the stored one stays).
 */
export function SecretField({
  label,
  isSet,
  value,
  replacing,
  onReplace,
  onChange,
  error,
  hint,
  storedLabel = 'enregistré',
}: {
  label: string;
  isSet: boolean;
  value: string;
  replacing: boolean;
  onReplace: () => void;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  /** What the badge says while a secret is stored (« Clé enregistrée » for a key). */
  storedLabel?: string;
}) {
  if (isSet && !replacing) {
    return (
      <fieldset className={stored}>
        <legend className={css({ fontWeight: '600', p: '0' })}>{label}</legend>
        <div className={storedRow}>
          <span className={badge}>{storedLabel}</span>
          <Button variant="outline" size="sm" onClick={onReplace}>
            Remplacer
          </Button>
        </div>
        {error && <span className={css({ color: 'danger' })}>{error}</span>}
      </fieldset>
    );
  }
  return (
    <TextField
      label={label}
      type="password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      autoComplete="new-password"
      spellCheck={false}
      hint={isSet ? 'Laissez vide pour garder celui qui est enregistré' : hint}
    />
  );
}
