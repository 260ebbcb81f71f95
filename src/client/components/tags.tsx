import type { CSSProperties } from 'react';
import { Link } from 'wouter';
import { css, cx } from '../../../styled-system/css';
import type { TagColor, TagKind } from '../../shared/schemas/tag';
import { trpc } from '../trpc';
import { Checkbox } from './ui/checkbox';
import { Field } from './ui/field';
import { Select } from './ui/select';

/**
 * Each palette key (shared/schemas/tag.ts) as a text colour for each theme; the chip tints its background from it.
 * Given as variables, since a stored key picks the colour at run time where Panda's classes are fixed at build.
 */
export const TAG_PALETTE: Record<TagColor, { label: string; light: string; dark: string }> = {
  gray: { label: 'Gris', light: '#4B5563', dark: '#C4C9D0' },
  red: { label: 'Rouge', light: '#B42318', dark: '#FF8A80' },
  orange: { label: 'Orange', light: '#B54708', dark: '#FFB072' },
  yellow: { label: 'Jaune', light: '#8A6100', dark: '#F5D04C' },
  green: { label: 'Vert', light: '#1E7B45', dark: '#6FD39C' },
  teal: { label: 'Turquoise', light: '#0E7471', dark: '#5ED3CF' },
  blue: { label: 'Bleu', light: '#1D4ED8', dark: '#8AB4FF' },
  purple: { label: 'Violet', light: '#6D28D9', dark: '#C4A5FF' },
  pink: { label: 'Rose', light: '#BE185D', dark: '#FF8CC6' },
};

export const tagVars = (color: TagColor) =>
  ({ '--tag-light': TAG_PALETTE[color].light, '--tag-dark': TAG_PALETTE[color].dark }) as CSSProperties;

const chip = css({
  '--tag': 'var(--tag-light)',
  _dark: { '--tag': 'var(--tag-dark)' },
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: '700',
  lineHeight: '1.4',
  whiteSpace: 'nowrap',
  color: 'var(--tag)',
  bg: 'color-mix(in srgb, var(--tag) 12%, transparent)',
  borderWidth: '1px',
  borderColor: 'color-mix(in srgb, var(--tag) 28%, transparent)',
  '&::before': { content: '""', w: '1.5', h: '1.5', borderRadius: 'full', bg: 'var(--tag)', flexShrink: 0 },
});

export function TagChip({ name, color, className }: { name: string; color: TagColor; className?: string }) {
  return (
    <span className={cx(chip, className)} style={tagVars(color)}>
      {name}
    </span>
  );
}

/** The chips of a record in a list row. */
export function TagChips({ tags }: { tags: { id: number; name: string; color: TagColor }[] }) {
  if (tags.length === 0) return null;
  return (
    <span className={css({ display: 'inline-flex', flexWrap: 'wrap', gap: '1', ml: '2', verticalAlign: 'middle' })}>
      {tags.map((t) => (
        <TagChip key={t.id} name={t.name} color={t.color} />
      ))}
    </span>
  );
}

const KIND_PLURAL: Record<TagKind, string> = { customer: 'les clients', item: 'les articles', document: 'les documents' };

/** Picks a record's tags among those meant for its kind; each tag toggles like a checkbox. */
export function TagPicker({
  kind,
  value,
  onChange,
  error,
}: {
  kind: TagKind;
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string;
}) {
  const tags = trpc.tags.list.useQuery({ scope: kind }, { staleTime: 30_000 });
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <legend className={css({ fontSize: 'sm', fontWeight: '600', mb: '1.5' })}>Étiquettes</legend>
      {tags.data && tags.data.total === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Aucune étiquette pour {KIND_PLURAL[kind]}.{' '}
          <Link href="/settings/tags" className={css({ color: 'accent.fg', fontWeight: '600' })}>
            Créer des étiquettes
          </Link>
        </p>
      ) : (
        <div className={css({ display: 'flex', flexWrap: 'wrap', columnGap: '4', rowGap: '2' })}>
          {tags.data?.data.map((t) => (
            <Checkbox
              key={t.id}
              checked={value.includes(t.id)}
              onChange={(checked) => onChange(checked ? [...value, t.id] : value.filter((id) => id !== t.id))}
            >
              <TagChip name={t.name} color={t.color} />
            </Checkbox>
          ))}
        </div>
      )}
      {error && <p className={css({ fontSize: 'xs', color: 'danger' })}>{error}</p>}
    </fieldset>
  );
}

/** A list sidebar's tag filter, label included: the tags meant for the list's kind; empty shows every record. */
export function TagFilter({ kind, value, onChange }: { kind: TagKind; value: string | undefined; onChange: (value: string) => void }) {
  const tags = trpc.tags.list.useQuery({ scope: kind }, { staleTime: 30_000 });
  if (!tags.data || (tags.data.total === 0 && !value)) return null; // no tags yet: nothing to filter on
  return (
    <Field label="Étiquette">
      <Select
        value={value ?? ''}
        onChange={onChange}
        options={[{ value: '', label: 'Toutes' }, ...tags.data.data.map((t) => ({ value: String(t.id), label: t.name }))]}
      />
    </Field>
  );
}
