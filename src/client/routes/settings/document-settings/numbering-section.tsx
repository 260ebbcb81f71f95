import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { DOCUMENT_TYPES } from '../../../../shared/schemas/document';
import { formatCustomerNumber, formatDocumentNumber, NUMBERING_PLACEHOLDERS } from '../../../../shared/numbering';
import { TEMPLATE_TYPE_LABELS } from '../../../../shared/template-labels';
import { designer, draft } from './designer-store';
import { grid, NumberField, panel, sectionNote, sectionTitle, subCard, TextInput } from './fields';

const PLACEHOLDER_HINTS: Record<(typeof NUMBERING_PLACEHOLDERS)[number], string> = {
  year: 'année (2026)',
  month: 'mois (03)',
  day: 'jour (15)',
  quarter: 'trimestre (Q1 à Q4)',
  customer_id: 'numéro du client',
  currency: 'devise (EUR)',
  order: 'n° du bon de commande',
};

/** The sample counter 42 on the 15 March of this year, for a customer CL-00007 paying in euros. */
const sampleContext = () => ({ date: `${new Date().getFullYear()}-03-15`, customer_id: 'CL-00007', currency: 'EUR', order: 'BC-0012' });
const SAMPLE_COUNTER = 42;

const sample = css({ fontFamily: 'mono', fontSize: 'sm', bg: 'bg.subtle', borderRadius: 'md', px: '2', py: '1.5', alignSelf: 'end', minH: '9', display: 'flex', alignItems: 'center', overflowWrap: 'anywhere' });
const chip = css({ fontFamily: 'mono', fontSize: 'xs', bg: 'accent.subtle', color: 'accent.fg', borderRadius: 'md', px: '1.5', py: '0.5' });

/** Numérotation: prefix, suffix and digits per document type, and the customer numbers, each with a live sample. */
export function NumberingSection() {
  const snap = useSnapshot(designer).draft!;
  const ctx = sampleContext();
  return (
    <div className={panel}>
      <p className={sectionNote}>
        Numéro = préfixe + compteur complété par des zéros + suffixe. Dans le préfixe et le suffixe :{' '}
        {NUMBERING_PLACEHOLDERS.map((p, i) => (
          <span key={p}>
            <code className={chip}>{`{${p}}`}</code> {PLACEHOLDER_HINTS[p]}
            {i < NUMBERING_PLACEHOLDERS.length - 1 ? ', ' : '.'}
          </span>
        ))}
      </p>
      {DOCUMENT_TYPES.map((type) => {
        const n = snap.numbering[type];
        const valid = Number.isInteger(n.digit_count) && n.digit_count >= 0 && n.digit_count <= 12;
        return (
          <section key={type} className={subCard} aria-label={`Numérotation : ${TEMPLATE_TYPE_LABELS[type]}`}>
            <p className={sectionTitle}>{TEMPLATE_TYPE_LABELS[type]}</p>
            <div className={grid.medium}>
              <TextInput label="Préfixe" mono value={n.prefix} path={`numbering.${type}.prefix`} onChange={(v) => (draft().numbering[type].prefix = v)} />
              <TextInput label="Suffixe" mono value={n.suffix} path={`numbering.${type}.suffix`} onChange={(v) => (draft().numbering[type].suffix = v)} />
              <NumberField label="Nombre de chiffres" value={n.digit_count} min={0} max={12} path={`numbering.${type}.digit_count`} onChange={(v) => (draft().numbering[type].digit_count = v)} />
              <output className={sample} aria-label={`Exemple de numéro : ${TEMPLATE_TYPE_LABELS[type]}`} data-testid={`number-sample-${type}`}>
                {valid ? formatDocumentNumber(n, SAMPLE_COUNTER, ctx) : '—'}
              </output>
            </div>
          </section>
        );
      })}
      <section className={subCard} aria-label="Numérotation des clients">
        <p className={sectionTitle}>Clients</p>
        <div className={grid.medium}>
          <TextInput label="Préfixe client" mono value={snap.customer_numbering.prefix} path="customer_numbering.prefix" onChange={(v) => (draft().customer_numbering.prefix = v)} />
          <TextInput label="Séparateur" mono value={snap.customer_numbering.separator} path="customer_numbering.separator" onChange={(v) => (draft().customer_numbering.separator = v)} />
          <NumberField label="Chiffres du numéro client" value={snap.customer_numbering.digit_count} min={0} max={12} path="customer_numbering.digit_count" onChange={(v) => (draft().customer_numbering.digit_count = v)} />
          <output className={sample} aria-label="Exemple de numéro client" data-testid="customer-number-sample">
            {Number.isInteger(snap.customer_numbering.digit_count) ? formatCustomerNumber(snap.customer_numbering, 7) : '—'}
          </output>
        </div>
      </section>
    </div>
  );
}
