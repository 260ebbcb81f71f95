import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { FONTS } from '../../../components/display-options';
import { designer, draft } from './designer-store';
import { CheckField, NumberField, SelectField } from './fields';
import { grid, panel, sectionNote, sectionTitle, subCard } from './panel-layout';
import { defined } from '../../../../shared/defined';

const SIDES = [
  ['top', 'Haut'],
  ['bottom', 'Bas'],
  ['left', 'Gauche'],
  ['right', 'Droite'],
] as const;
const PAGES = [
  ['first_page', 'Première page'],
  ['following_pages', 'Pages suivantes'],
] as const;
// The document keeps a font of its own; 'system-ui' would differ between the browser preview and the PDF.
const FONT_OPTIONS = FONTS.filter((f) => f.value !== 'system-ui').map((f) => ({
  value: f.value,
  label: f.label,
}));

/** Mise en page: margins in cm per first/following page, the text font, and the fold mark for window envelopes. */
export function LayoutSection() {
  const snap = defined(useSnapshot(designer).draft, 'useSnapshot(designer).draft');
  const fonts = FONT_OPTIONS.some((f) => f.value === snap.font_family)
    ? FONT_OPTIONS
    : [...FONT_OPTIONS, { value: snap.font_family, label: snap.font_family }];
  return (
    <div className={panel}>
      {PAGES.map(([page, title]) => (
        <section key={page} className={subCard} aria-label={`Marges : ${title.toLowerCase()}`}>
          <p className={sectionTitle}>Marges — {title.toLowerCase()}</p>
          <div className={grid.four}>
            {SIDES.map(([side, label]) => (
              <NumberField
                key={side}
                label={label}
                context={page === 'first_page' ? '1re page' : 'suivantes'}
                unit="cm"
                step={0.1}
                min={0}
                max={10}
                value={snap.margins[page][side]}
                path={`margins.${page}.${side}`}
                onChange={(v) => (draft().margins[page][side] = v)}
              />
            ))}
          </div>
        </section>
      ))}

      <section className={subCard} aria-label="Texte">
        <p className={sectionTitle}>Texte</p>
        <div className={grid.medium}>
          <SelectField
            label="Police du document"
            value={snap.font_family}
            options={fonts}
            path="font_family"
            onChange={(v) => (draft().font_family = v)}
          />
          <NumberField
            label="Taille du texte"
            unit="pt"
            step={0.5}
            min={6}
            max={24}
            value={snap.font_size}
            path="font_size"
            onChange={(v) => (draft().font_size = v)}
          />
          <NumberField
            label="Interligne"
            step={0.05}
            min={1}
            max={3}
            value={snap.line_height}
            path="line_height"
            onChange={(v) => (draft().line_height = v)}
          />
        </div>
      </section>

      <section className={subCard} aria-label="Ligne de pliage">
        <p className={sectionTitle}>Ligne de pliage</p>
        <p className={sectionNote}>Un repère dans la marge pour plier la feuille en trois et la glisser dans une enveloppe à fenêtre.</p>
        <div
          className={css({
            display: 'flex',
            flexWrap: 'wrap',
            gap: '4',
            alignItems: 'end',
          })}
        >
          <CheckField
            label="Afficher la ligne de pliage"
            checked={snap.fold_line.status}
            onChange={(v) => (draft().fold_line.status = v)}
          />
          <CheckField
            label="Sur la première page seulement"
            checked={snap.fold_line.only_first_page}
            disabled={!snap.fold_line.status}
            onChange={(v) => (draft().fold_line.only_first_page = v)}
          />
          <div className={css({ minW: '40' })}>
            <SelectField
              label="Côté"
              value={snap.fold_line.alignment}
              options={[
                { value: 'left', label: 'Gauche' },
                { value: 'right', label: 'Droite' },
              ]}
              onChange={(v) => (draft().fold_line.alignment = v)}
            />
          </div>
        </div>
      </section>
    </div>
  );
}
