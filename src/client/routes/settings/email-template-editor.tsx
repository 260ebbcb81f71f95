import { useRef } from 'react';
import { css } from '../../../../styled-system/css';
import {
  EMAIL_PLACEHOLDER_LABELS,
  EMAIL_PLACEHOLDERS,
  EMAIL_TEMPLATE_LABELS,
  EMAIL_TEMPLATE_TYPES,
  renderEmailTemplate,
  sampleEmailValues,
  type EmailPlaceholder,
  type EmailTemplateType,
} from '../../../shared/email-template';
import type { EmailSettings } from '../../../shared/schemas/email-settings';
import { Field, Textarea } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';

type Template = EmailSettings['templates'][EmailTemplateType];
type Part = keyof Template;

const styles = {
  layout: css({
    display: 'grid',
    gridTemplateColumns: { base: '1fr', xl: 'minmax(0, 1fr) minmax(0, 1fr)' },
    gap: '5',
    alignItems: 'start',
  }),
  column: css({ display: 'flex', flexDirection: 'column', gap: '4', minW: '0' }),
  label: css({ fontSize: 'sm', fontWeight: '600' }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1.5' }),
  chips: css({ display: 'flex', flexWrap: 'wrap', gap: '1.5' }),
  chip: css({
    fontFamily: 'mono',
    fontSize: 'xs',
    px: '2',
    py: '1',
    borderRadius: 'full',
    borderWidth: '1px',
    borderColor: 'border.default',
    bg: 'bg.subtle',
    color: 'accent.fg',
    cursor: 'pointer',
    _hover: { borderColor: 'accent.default', bg: 'accent.subtle' },
  }),
  preview: css({ borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', overflow: 'hidden', bg: 'bg.surface' }),
  previewHead: css({
    bg: 'bg.subtle',
    px: '4',
    py: '3',
    fontSize: 'sm',
    display: 'grid',
    gridTemplateColumns: 'auto 1fr',
    columnGap: '3',
    rowGap: '1',
    '& dt': { color: 'fg.muted' },
    '& dd': { minW: '0', overflowWrap: 'anywhere' },
  }),
  previewBody: css({ px: '4', py: '3', fontSize: 'sm', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: '1.6' }),
};

interface Props {
  type: EmailTemplateType;
  onTypeChange: (type: EmailTemplateType) => void;
  templates: EmailSettings['templates'];
  onChange: (type: EmailTemplateType, template: Template) => void;
  errors: Record<string, string>;
  organizationName: string;
  senderName: string;
  replyTo: string;
}

/** One template at a time: subject and body, placeholder chips that insert at the cursor, and a live preview. */
export function EmailTemplateEditor({ type, onTypeChange, templates, onChange, errors, organizationName, senderName, replyTo }: Props) {
  const template = templates[type];
  const fields = { subject: useRef<HTMLInputElement>(null), body: useRef<HTMLTextAreaElement>(null) };
  // The field the chips write into: the last one focused; before any, the end of the body.
  const lastField = useRef<Part | null>(null);
  const errorOf = (part: Part) => errors[`templates.${type}.${part}`];
  const values = sampleEmailValues(type, { organizationName: organizationName || 'Votre entreprise' });

  function insert(name: EmailPlaceholder) {
    const part = lastField.current ?? 'body';
    const element = fields[part].current;
    const text = template[part];
    const [start, end] =
      lastField.current && element
        ? [element.selectionStart ?? text.length, element.selectionEnd ?? text.length]
        : [text.length, text.length];
    const token = `{${name}}`;
    onChange(type, { ...template, [part]: text.slice(0, start) + token + text.slice(end) });
    lastField.current = part;
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  const withErrors = (t: EmailTemplateType) => errors[`templates.${t}.subject`] || errors[`templates.${t}.body`];
  return (
    <div className={styles.layout}>
      <div className={styles.column}>
        <Field label="Modèle">
          <Select
            value={type}
            options={EMAIL_TEMPLATE_TYPES.map((t) => ({
              value: t,
              label: `${EMAIL_TEMPLATE_LABELS[t]}${withErrors(t) ? ' (à corriger)' : ''}`,
            }))}
            onChange={(next) => {
              lastField.current = null;
              onTypeChange(next as EmailTemplateType);
            }}
          />
        </Field>
        <TextField
          ref={fields.subject}
          label="Objet"
          value={template.subject}
          error={errorOf('subject')}
          onFocus={() => (lastField.current = 'subject')}
          onChange={(e) => onChange(type, { ...template, subject: e.target.value })}
        />
        <Field label="Message" error={errorOf('body')}>
          <Textarea
            ref={fields.body}
            rows={11}
            value={template.body}
            onFocus={() => (lastField.current = 'body')}
            onChange={(e) => onChange(type, { ...template, body: e.target.value })}
          />
        </Field>
        <div className={styles.field}>
          <span className={styles.label}>Insérer une variable</span>
          {/* biome-ignore lint/a11y/useSemanticElements: a group of buttons that insert text, not form fields (which <fieldset> is for) */}
          <div className={styles.chips} role="group" aria-label="Variables">
            {EMAIL_PLACEHOLDERS.map((name) => (
              <button
                key={name}
                type="button"
                className={styles.chip}
                title={EMAIL_PLACEHOLDER_LABELS[name]}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => insert(name)}
              >
                {`{${name}}`}
              </button>
            ))}
          </div>
        </div>
      </div>

      <section className={styles.column} aria-label="Aperçu de l’e-mail">
        <span className={styles.label}>Aperçu avec des valeurs d’exemple</span>
        <div className={styles.preview} aria-live="polite">
          <dl className={styles.previewHead}>
            <dt>De</dt>
            <dd>{senderName || organizationName || 'Votre entreprise'}</dd>
            {replyTo && (
              <>
                <dt>Répondre à</dt>
                <dd>{replyTo}</dd>
              </>
            )}
            <dt>À</dt>
            <dd>{values.customer_name}</dd>
            <dt>Objet</dt>
            <dd data-testid="preview-subject" className={css({ fontWeight: '600' })}>
              {renderEmailTemplate(template.subject, values)}
            </dd>
          </dl>
          <div className={styles.previewBody} data-testid="preview-body">
            {renderEmailTemplate(template.body, values)}
          </div>
        </div>
      </section>
    </div>
  );
}
