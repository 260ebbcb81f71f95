import type { Snapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { BORDER_STYLE_OPTIONS } from '../../../../shared/schemas/style';
import type { TemplateElement } from '../../../../shared/schemas/template';
import { DISPLAY_FLAG_LABELS } from '../../../../shared/template-labels';
import { formatRate } from '../../../../shared/typography';
import { DOCUMENT_ICON_NAMES } from '../../../render/document-icons';
import { CheckField, ColorField, NumberField, SelectField, TextAreaField, TextInput } from './fields';
import { grid, Disclosure } from './panel-layout';
import { StyleEditor } from './style-editor';

const LAYOUTS = [
  { value: 1, label: 'Libellé et valeur côte à côte' },
  { value: 2, label: 'Bandeau : libellé au-dessus de la valeur' },
  { value: 3, label: 'Tableau encadré' },
] as const;
const ICON_LABELS: Record<string, string> = {
  phone: 'Téléphone',
  mail: 'E-mail',
  globe: 'Site web',
  building: 'Immeuble',
  file: 'Document',
  calendar: 'Calendrier',
  bank: 'Banque',
  truck: 'Camion',
  user: 'Personne',
  check: 'Coche',
  star: 'Étoile',
  heart: 'Cœur',
  leaf: 'Feuille',
};
/** The icons the renderer draws; a name saved by an older version stays selectable. */
const iconOptions = (current: string) => {
  const names = DOCUMENT_ICON_NAMES.includes(current) ? DOCUMENT_ICON_NAMES : [current, ...DOCUMENT_ICON_NAMES];
  return names.map((name) => ({ value: name, label: ICON_LABELS[name] ?? name }));
};
const ALIGN = [
  { value: 'left', label: 'Gauche' },
  { value: 'center', label: 'Centre' },
  { value: 'right', label: 'Droite' },
] as const;

interface Props {
  value: Snapshot<TemplateElement>;
  /** The draft's element, to change. */
  edit: () => TemplateElement;
  path: string;
}

/** The options of one template element, by type, and the style every element may carry. */
export function ElementOptions({ value, edit, path }: Props) {
  // Each branch narrows the draft element to the type on screen.
  const as = <T extends TemplateElement['type']>(_type: T) => edit() as Extract<TemplateElement, { type: T }>;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      {value.type === 'logo' && (
        <div className={grid.medium}>
          <NumberField
            label="Taille du logo"
            unit="%"
            min={1}
            max={100}
            value={value.size}
            path={`${path}.size`}
            onChange={(v) => (as('logo').size = v)}
          />
          <TextInput
            label="Image (vide : logo de l’entreprise)"
            value={value.url}
            path={`${path}.url`}
            placeholder="/uploads/logos/…"
            onChange={(v) => (as('logo').url = v)}
          />
        </div>
      )}
      {value.type === 'icon' && (
        <div className={grid.medium}>
          <SelectField
            label="Icône"
            value={value.name}
            options={iconOptions(value.name)}
            path={`${path}.name`}
            onChange={(v) => (as('icon').name = v)}
          />
          <NumberField
            label="Taille de l’icône"
            unit="px"
            min={8}
            max={200}
            value={value.size}
            path={`${path}.size`}
            onChange={(v) => (as('icon').size = v)}
          />
          <ColorField label="Couleur de l’icône" value={value.color} path={`${path}.color`} onChange={(v) => (as('icon').color = v)} />
        </div>
      )}
      {value.type === 'document_info' && (
        <>
          <SelectField
            label="Disposition"
            value={value.layout}
            options={LAYOUTS}
            path={`${path}.layout`}
            onChange={(v) => (as('document_info').layout = v)}
          />
          <fieldset
            className={css({
              display: 'flex',
              flexWrap: 'wrap',
              gap: '1',
              columnGap: '4',
            })}
          >
            <legend
              className={css({
                fontSize: 'xs',
                fontWeight: '600',
                color: 'fg.muted',
                mb: '1',
              })}
            >
              Informations affichées
            </legend>
            {(Object.keys(DISPLAY_FLAG_LABELS) as (keyof typeof DISPLAY_FLAG_LABELS)[]).map((flag) => (
              <CheckField
                key={flag}
                label={DISPLAY_FLAG_LABELS[flag]}
                checked={value.display[flag]}
                onChange={(v) => (as('document_info').display[flag] = v)}
              />
            ))}
          </fieldset>
        </>
      )}
      {value.type === 'text' && (
        <TextAreaField
          label="Texte"
          rows={3}
          value={value.content}
          path={`${path}.content`}
          placeholder="Ex. : Merci pour votre confiance"
          onChange={(v) => (as('text').content = v)}
        />
      )}
      {value.type === 'separator' && (
        <div className={grid.medium}>
          <SelectField
            label="Trait"
            value={value.border_style}
            options={BORDER_STYLE_OPTIONS}
            path={`${path}.border_style`}
            onChange={(v) => (as('separator').border_style = v)}
          />
          <NumberField
            label="Épaisseur"
            unit="px"
            min={0}
            max={10}
            value={value.width}
            path={`${path}.width`}
            onChange={(v) => (as('separator').width = v)}
          />
          <NumberField
            label="Longueur"
            unit="%"
            min={1}
            max={100}
            value={value.el_width}
            path={`${path}.el_width`}
            onChange={(v) => (as('separator').el_width = v)}
          />
          <SelectField
            label="Position"
            value={value.align}
            options={ALIGN}
            path={`${path}.align`}
            onChange={(v) => (as('separator').align = v)}
          />
          <ColorField label="Couleur du trait" value={value.color} path={`${path}.color`} onChange={(v) => (as('separator').color = v)} />
        </div>
      )}
      <Disclosure summary="Style de l’élément">
        <StyleEditor value={value.style} edit={() => (edit().style ??= {})} path={`${path}.style`} />
      </Disclosure>
    </div>
  );
}

/** What the element's line in the list says besides its type: the start of a text, the logo size… */
export function elementSummary(element: Snapshot<TemplateElement>): string {
  switch (element.type) {
    case 'text':
      return element.content ? `« ${element.content.length > 40 ? `${element.content.slice(0, 40)}…` : element.content} »` : '(vide)';
    case 'logo':
      return formatRate(element.size);
    case 'document_info':
      return `disposition ${element.layout}`;
    case 'separator':
      return formatRate(element.el_width);
    default:
      return '';
  }
}
