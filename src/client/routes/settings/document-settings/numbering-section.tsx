import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { DOCUMENT_TYPES } from '../../../../shared/schemas/document';
import { formatCustomerNumber, formatDocumentNumber, NUMBERING_PLACEHOLDERS } from '../../../../shared/numbering';
import { TEMPLATE_TYPE_LABELS } from '../../../../shared/template-labels';
import { designer, draft } from './designer-store';
import { NumberField, TextInput } from './fields';
import { panel, sectionNote, sectionTitle, subCard } from './panel-layout';
import { defined } from '../../../../shared/defined';

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
const sampleContext = () => ({
  date: `${new Date().getFullYear()}-03-15`,
  customer_id: 'CL-00007',
  currency: 'EUR',
  order: 'BC-0012',
});
const SAMPLE_COUNTER = 42;

const sample = css({
  fontFamily: 'mono',
  fontSize: 'sm',
  fontWeight: '600',
  color: 'fg.default',
  bg: 'bg.subtle',
  borderRadius: 'md',
  px: '2',
  py: '0.5',
  overflowWrap: 'anywhere',
});
const head = css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2', flexWrap: 'wrap' });
// Prefix and suffix take the room; the digit count is a two-character number.
const fields = css({ display: 'grid', gap: '3', alignItems: 'start', gridTemplateColumns: 'minmax(0, 1.4fr) minmax(0, 1fr) 88px' });

function Card({ title, sample: text, testId, children }: { title: string; sample: string; testId: string; children: ReactNode }) {
  return (
    <section className={subCard} aria-label={title}>
      <div className={head}>
        <p className={sectionTitle}>{title.replace('Numérotation : ', '')}</p>
        <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          Exemple :{' '}
          <output className={sample} data-testid={testId}>
            {text}
          </output>
        </span>
      </div>
      <div className={fields}>{children}</div>
    </section>
  );
}

const chip = css({
  fontFamily: 'mono',
  fontSize: 'xs',
  bg: 'accent.subtle',
  color: 'accent.fg',
  borderRadius: 'md',
  px: '1.5',
  py: '0.5',
});

const collisionList = css({
  fontSize: 'sm',
  color: 'danger',
  bg: 'dangerSubtle',
  borderRadius: 'md',
  px: '3',
  py: '2',
  pl: '7',
  listStyleType: 'disc',
});

/**
 * Numérotation: prefix, suffix and digits per document type, and the customer numbers, each with a live sample; above
 * them, the pairs of series that could give the same number (refused on save).
 */
export function NumberingSection({ collisions = [] }: { collisions?: readonly string[] }) {
  const snap = defined(useSnapshot(designer).draft, 'useSnapshot(designer).draft');
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
      {collisions.length > 0 && (
        <ul className={collisionList} role="alert" data-testid="numbering-collisions">
          {collisions.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {DOCUMENT_TYPES.map((type) => {
        const n = snap.numbering[type];
        const label = TEMPLATE_TYPE_LABELS[type];
        const valid = Number.isInteger(n.digit_count) && n.digit_count >= 0 && n.digit_count <= 12;
        return (
          <Card
            key={type}
            title={`Numérotation : ${label}`}
            sample={valid ? formatDocumentNumber(n, SAMPLE_COUNTER, ctx) : '—'}
            testId={`number-sample-${type}`}
          >
            <TextInput
              label="Préfixe"
              context={label}
              mono
              value={n.prefix}
              path={`numbering.${type}.prefix`}
              onChange={(v) => (draft().numbering[type].prefix = v)}
            />
            <TextInput
              label="Suffixe"
              context={label}
              mono
              value={n.suffix}
              path={`numbering.${type}.suffix`}
              onChange={(v) => (draft().numbering[type].suffix = v)}
            />
            <NumberField
              label="Chiffres"
              context={label}
              value={n.digit_count}
              min={0}
              max={12}
              path={`numbering.${type}.digit_count`}
              onChange={(v) => (draft().numbering[type].digit_count = v)}
            />
          </Card>
        );
      })}
      <Card
        title="Numérotation des clients"
        sample={Number.isInteger(snap.customer_numbering.digit_count) ? formatCustomerNumber(snap.customer_numbering, 7) : '—'}
        testId="customer-number-sample"
      >
        <TextInput
          label="Préfixe"
          context="clients"
          mono
          value={snap.customer_numbering.prefix}
          path="customer_numbering.prefix"
          onChange={(v) => (draft().customer_numbering.prefix = v)}
        />
        <TextInput
          label="Séparateur"
          context="clients"
          mono
          value={snap.customer_numbering.separator}
          path="customer_numbering.separator"
          onChange={(v) => (draft().customer_numbering.separator = v)}
        />
        <NumberField
          label="Chiffres"
          context="clients"
          value={snap.customer_numbering.digit_count}
          min={0}
          max={12}
          path="customer_numbering.digit_count"
          onChange={(v) => (draft().customer_numbering.digit_count = v)}
        />
      </Card>
    </div>
  );
}
