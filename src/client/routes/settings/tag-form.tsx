import { useId, useState, type FormEvent } from 'react';
import { css } from '../../../../styled-system/css';
import { TAG_COLORS, TAG_KINDS, tagInputSchema, type Tag, type TagColor, type TagKind } from '../../../shared/schemas/tag';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { TextField } from '../../components/ui/text-field';
import { TAG_PALETTE, tagVars } from '../../components/tags';

export const SCOPE_LABELS: Record<TagKind, string> = { customer: 'Clients', item: 'Articles', document: 'Documents' };

export type TagDraft = { name: string; color: TagColor; scopes: TagKind[] };
export const blankTag = (): TagDraft => ({ name: '', color: 'blue', scopes: ['customer', 'item'] });

const legend = css({ fontSize: 'sm', fontWeight: '600', mb: '1.5' });
const swatch = css({
  '--tag': 'var(--tag-light)',
  _dark: { '--tag': 'var(--tag-dark)' },
  position: 'relative',
  display: 'grid',
  placeItems: 'center',
  w: '7',
  h: '7',
  borderRadius: 'full',
  // The real radio, transparent, covers the swatch: clicks and keyboard reach it as they would a visible one.
  '& input': { position: 'absolute', inset: '0', m: '0', opacity: 0, cursor: 'pointer' },
  '& span': { w: '5', h: '5', borderRadius: 'full', bg: 'var(--tag)', transition: 'transform 0.1s', pointerEvents: 'none' },
  '&:has(input:checked)': { boxShadow: '0 0 0 2px var(--tag)' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
  _hover: { '& span': { transform: 'scale(1.1)' } },
});

/**
 * Name, colour and scope of a tag, checked with the server's schema before `onSubmit`; used to add a tag and to edit
 * one in place. `error` is the server's answer (a duplicate name), shown with the client's own.
 */
export function TagForm({
  title,
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
  onNameChange,
}: {
  /** The form's accessible name: the add form and an edit form can be on the page together. */
  title: string;
  initial: TagDraft;
  submitLabel: string;
  pending: boolean;
  error?: string;
  onSubmit: (tag: Tag) => void;
  onCancel?: () => void;
  /** The server's `error` was about the old name: the page drops it. */
  onNameChange?: () => void;
}) {
  const [draft, setDraft] = useState<TagDraft>(initial);
  // The name's error shows under it; the scope's (none checked) by the buttons.
  const [localError, setLocalError] = useState<{ name?: string; other?: string }>({});
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = tagInputSchema.safeParse(draft);
    const issue = result.error?.issues[0];
    setLocalError(issue ? (issue.path[0] === 'name' ? { name: issue.message } : { other: issue.message }) : {});
    if (result.success) onSubmit(result.data);
  }

  return (
    <form aria-label={title} onSubmit={submit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <TextField
        label={onCancel ? 'Nom' : 'Nouvelle étiquette'}
        placeholder="À relancer"
        value={draft.name}
        maxLength={40}
        error={localError.name ?? error}
        onChange={(e) => {
          setLocalError({});
          onNameChange?.();
          return setDraft({ ...draft, name: e.target.value });
        }}
        autoFocus={Boolean(onCancel)}
        className={css({ maxW: '360px' })}
      />
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '6' })}>
        <fieldset>
          <legend className={legend}>Couleur</legend>
          <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })}>
            {TAG_COLORS.map((color) => (
              <label key={color} className={swatch} style={tagVars(color)} title={TAG_PALETTE[color].label}>
                <input
                  type="radio"
                  name={`${id}-color`}
                  aria-label={TAG_PALETTE[color].label}
                  checked={draft.color === color}
                  onChange={() => setDraft({ ...draft, color })}
                />
                <span aria-hidden />
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend className={legend}>S’applique aux</legend>
          <div className={css({ display: 'flex', gap: '4', fontSize: 'sm', h: '7', alignItems: 'center' })}>
            {TAG_KINDS.map((kind) => (
              <Checkbox
                key={kind}
                checked={draft.scopes.includes(kind)}
                onChange={(checked) => {
                  setLocalError({});
                  return setDraft({ ...draft, scopes: checked ? [...draft.scopes, kind] : draft.scopes.filter((k) => k !== kind) });
                }}
              >
                {SCOPE_LABELS[kind]}
              </Checkbox>
            ))}
          </div>
        </fieldset>
      </div>
      {localError.other && (
        <p role="alert" className={css({ color: 'danger', fontSize: 'sm' })}>
          {localError.other}
        </p>
      )}
      <div className={css({ display: 'flex', gap: '2' })}>
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Annuler
          </Button>
        )}
      </div>
    </form>
  );
}
