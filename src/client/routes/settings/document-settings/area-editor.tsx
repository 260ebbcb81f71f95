import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { Button } from '../../../components/ui/button';
import { ColumnCard } from './column-card';
import { designer, draft, keyOf, move, newColumn, newRow, type Area } from './designer-store';
import { SelectField } from './fields';
import { grid, sectionNote } from './panel-layout';
import { MoveButtons } from './move-buttons';
import { defined } from '../../../../shared/defined';

const ROW_ALIGN = [
  { value: 'start', label: 'En haut' },
  { value: 'center', label: 'Au milieu' },
  { value: 'end', label: 'En bas' },
  { value: 'stretch', label: 'Étirées' },
] as const;
const ROW_JUSTIFY = [
  { value: 'start', label: 'À gauche' },
  { value: 'center', label: 'Au centre' },
  { value: 'end', label: 'À droite' },
  { value: 'space-between', label: 'Espacées aux bords' },
  { value: 'space-around', label: 'Espacées régulièrement' },
] as const;

export const AREA_NOTES: Record<Area, string> = {
  header: 'En haut de la première page, avant le tableau.',
  elements_following_pages: 'En haut de chaque page suivante, avant la suite du tableau.',
  footer: 'En bas de chaque page.',
};

const styles = {
  row: css({
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'lg',
    p: '3',
    display: 'flex',
    flexDirection: 'column',
    gap: '3',
    bg: 'bg.surface',
  }),
  rowHead: css({ display: 'flex', alignItems: 'center', gap: '2' }),
  rowTitle: css({ flex: '1', fontSize: 'sm', fontWeight: '700' }),
  columns: css({
    display: 'grid',
    gap: '2.5',
    gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
    alignItems: 'start',
  }),
  warning: css({ fontSize: 'xs', color: 'warning' }),
};

/** The rows of one area (header, following pages or footer), each a row of columns on a 12-column grid. */
export function AreaEditor({ area }: { area: Area }) {
  const rows = defined(useSnapshot(designer).draft, 'useSnapshot(designer).draft')[area];
  const proxies = draft()[area];
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <p className={sectionNote}>
        {AREA_NOTES[area]} Chaque ligne se partage en 12 ; glissez un élément d’une colonne à l’autre, ou utilisez Monter / Descendre.
      </p>
      {rows.length === 0 && <p className={sectionNote}>Aucune ligne.</p>}
      {rows.map((row, r) => {
        const span = row.columns.reduce((sum, c) => sum + c.cols + c.offset, 0);
        return (
          <section key={keyOf(defined(proxies[r], 'proxies[r]'))} className={styles.row} aria-label={`Ligne ${r + 1}`}>
            <div className={styles.rowHead}>
              <span className={styles.rowTitle}>Ligne {r + 1}</span>
              <MoveButtons name={`la ligne ${r + 1}`} index={r} count={rows.length} onMove={(to) => move(draft()[area], r, to)} />
              <Button size="sm" variant="ghost" onClick={() => draft()[area].splice(r, 1)}>
                Supprimer la ligne {r + 1}
              </Button>
            </div>
            <div className={grid.wide}>
              <SelectField
                label="Alignement vertical des colonnes"
                value={row.align}
                options={ROW_ALIGN}
                onChange={(v) => (defined(draft()[area][r], 'draft()[area][r]').align = v)}
              />
              <SelectField
                label="Répartition des colonnes"
                value={row.justify}
                options={ROW_JUSTIFY}
                onChange={(v) => (defined(draft()[area][r], 'draft()[area][r]').justify = v)}
              />
            </div>
            {span > 12 && (
              <p className={styles.warning}>Les colonnes et leurs décalages font {span} douzièmes : la dernière passera à la ligne.</p>
            )}
            <div className={styles.columns}>
              {row.columns.map((col, c) => (
                <ColumnCard
                  key={keyOf(defined(defined(proxies[r], 'proxies[r]').columns[c]))}
                  area={area}
                  row={r}
                  index={c}
                  count={row.columns.length}
                  value={col}
                />
              ))}
            </div>
            <div>
              <Button
                size="sm"
                variant="outline"
                disabled={row.columns.length >= 12}
                onClick={() => {
                  const free = Math.max(1, 12 - span);
                  defined(draft()[area][r], 'draft()[area][r]').columns.push(newColumn(Math.min(free, 12)));
                }}
              >
                Ajouter une colonne
              </Button>
            </div>
          </section>
        );
      })}
      <div>
        <Button variant="outline" disabled={rows.length >= 20} onClick={() => draft()[area].push(newRow())}>
          Ajouter une ligne
        </Button>
      </div>
    </div>
  );
}
