import { css } from '../../../../../styled-system/css';
import {
  BORDER_STYLE_OPTIONS,
  FONT_SIZE_OPTIONS,
  FONT_STYLE_OPTIONS,
  FONT_WEIGHT_OPTIONS,
  TEXT_TRANSFORM_OPTIONS,
  type Style,
} from '../../../../shared/schemas/style';
import { ColorField, NumberField, SelectField } from './fields';
import { grid, sectionTitle } from './panel-layout';

type Box = NonNullable<Style['margin']>;
type Border = NonNullable<Style['border_top']>;

const TEXT_ALIGN = [
  { value: 'default', label: 'Par défaut' },
  { value: 'left', label: 'Gauche' },
  { value: 'center', label: 'Centré' },
  { value: 'right', label: 'Droite' },
  { value: 'justify', label: 'Justifié' },
] as const;
const VERTICAL_ALIGN = [
  { value: 'default', label: 'Par défaut' },
  { value: 'top', label: 'Haut' },
  { value: 'middle', label: 'Milieu' },
  { value: 'bottom', label: 'Bas' },
] as const;
const COLLAPSE = [
  { value: 'default', label: 'Par défaut' },
  { value: 'collapse', label: 'Fusionnées' },
  { value: 'separate', label: 'Séparées' },
] as const;
const SIDES = [
  ['top', 'haut'],
  ['right', 'droite'],
  ['bottom', 'bas'],
  ['left', 'gauche'],
] as const;
const BORDERS = [
  ['border_top', 'Bordure haute'],
  ['border_right', 'Bordure droite'],
  ['border_bottom', 'Bordure basse'],
  ['border_left', 'Bordure gauche'],
] as const;

const group = css({ display: 'flex', flexDirection: 'column', gap: '2' });

interface StyleEditorProps {
  /** The style as rendered (a snapshot). */
  value: Style | undefined;
  /** The draft's style object to change, created on first use. */
  edit: () => Style;
  /** Dotted draft path of the style, for its validation messages. */
  path: string;
  /** Table parts also have border collapse and spacing. */
  table?: boolean;
}

/**
 * One editor for every style: a 'Par défaut' choice or an empty field removes the property, so the part
 * inherits what encloses it instead of pinning today's default.
 */
export function StyleEditor({ value = {}, edit, path, table }: StyleEditorProps) {
  function set<K extends keyof Style>(key: K, next: Style[K] | 'default' | '' | undefined) {
    const style = edit();
    if (next === undefined || next === '' || next === 'default') delete style[key];
    else style[key] = next as Style[K];
  }
  function setBox(key: 'margin' | 'padding', side: keyof Box, n: number) {
    const style = edit();
    style[key] ??= { top: 0, right: 0, bottom: 0, left: 0 };
    const box = style[key];
    box[side] = n;
    if (Object.values(box).every((v) => v === 0)) delete style[key];
  }
  function setBorder(key: (typeof BORDERS)[number][0], patch: Partial<Border>) {
    const style = edit();
    style[key] ??= { style: 'solid', width: 1, color: '' };
    const border = style[key];
    Object.assign(border, patch);
    if (border.style === 'default') delete style[key];
  }

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div className={group}>
        <p className={sectionTitle}>Texte</p>
        <div className={grid.medium}>
          <SelectField
            label="Taille de police"
            value={value.font_size ?? 'default'}
            options={
              FONT_SIZE_OPTIONS as {
                value: number | 'default';
                label: string;
              }[]
            }
            path={`${path}.font_size`}
            onChange={(v) => set('font_size', v as Style['font_size'])}
          />
          <SelectField
            label="Graisse"
            value={value.font_weight ?? 'default'}
            options={FONT_WEIGHT_OPTIONS}
            path={`${path}.font_weight`}
            onChange={(v) => set('font_weight', v)}
          />
          <SelectField
            label="Style de police"
            value={value.font_style ?? 'default'}
            options={FONT_STYLE_OPTIONS}
            path={`${path}.font_style`}
            onChange={(v) => set('font_style', v)}
          />
          <SelectField
            label="Casse"
            value={value.text_transform ?? 'default'}
            options={TEXT_TRANSFORM_OPTIONS}
            path={`${path}.text_transform`}
            onChange={(v) => set('text_transform', v)}
          />
          <SelectField
            label="Alignement du texte"
            value={value.text_align ?? 'default'}
            options={TEXT_ALIGN}
            path={`${path}.text_align`}
            onChange={(v) => set('text_align', v)}
          />
          <SelectField
            label="Alignement vertical"
            value={value.vertical_align ?? 'default'}
            options={VERTICAL_ALIGN}
            path={`${path}.vertical_align`}
            onChange={(v) => set('vertical_align', v)}
          />
          <ColorField label="Couleur du texte" value={value.color} path={`${path}.color`} onChange={(v) => set('color', v)} />
          <ColorField
            label="Couleur de fond"
            value={value.background_color}
            path={`${path}.background_color`}
            onChange={(v) => set('background_color', v)}
          />
        </div>
      </div>

      <div className={group}>
        <p className={sectionTitle}>Bordures</p>
        {BORDERS.map(([key, label]) => {
          const border = value[key];
          return (
            <div key={key} className={grid.medium}>
              <SelectField
                label={label}
                value={border?.style ?? 'default'}
                options={BORDER_STYLE_OPTIONS}
                path={`${path}.${key}.style`}
                onChange={(v) => setBorder(key, { style: v })}
              />
              {border && (
                <>
                  <NumberField
                    label={`${label} : épaisseur`}
                    unit="px"
                    min={0}
                    max={10}
                    value={border.width}
                    path={`${path}.${key}.width`}
                    onChange={(v) => setBorder(key, { width: v })}
                  />
                  <ColorField
                    label={`${label} : couleur`}
                    value={border.color}
                    path={`${path}.${key}.color`}
                    onChange={(v) => setBorder(key, { color: v })}
                  />
                </>
              )}
            </div>
          );
        })}
        {table && (
          <div className={grid.medium}>
            <SelectField
              label="Fusion des bordures"
              value={value.border_collapse ?? 'default'}
              options={COLLAPSE}
              path={`${path}.border_collapse`}
              onChange={(v) => set('border_collapse', v)}
            />
            <NumberField
              label="Espacement des bordures"
              unit="px"
              min={0}
              max={20}
              value={value.border_spacing}
              placeholder="0"
              path={`${path}.border_spacing`}
              onChange={(v) => set('border_spacing', Number.isNaN(v) ? undefined : v)}
            />
          </div>
        )}
      </div>

      {(['padding', 'margin'] as const).map((key) => (
        <div key={key} className={group}>
          <p className={sectionTitle}>{key === 'padding' ? 'Marges intérieures' : 'Marges extérieures'}</p>
          <div className={grid.narrow}>
            {SIDES.map(([side, label]) => (
              <NumberField
                key={side}
                label={`${key === 'padding' ? 'Intérieure' : 'Extérieure'} ${label}`}
                unit="px"
                min={0}
                max={200}
                placeholder="0"
                value={value[key]?.[side]}
                path={`${path}.${key}.${side}`}
                onChange={(v) => setBox(key, side, Number.isNaN(v) ? 0 : v)}
              />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
