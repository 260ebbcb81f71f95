import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { css, cx } from '../../../../../styled-system/css';
import { TABLE_COLUMN_TYPES } from '../../../../shared/schemas/template';
import { TABLE_COLUMN_LABELS, TOTALS_LABELS } from '../../../../shared/template-labels';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { designer, draft, move } from './designer-store';
import { CheckField, NumberField, SelectField, TextInput } from './fields';
import { grid, panel, sectionNote, sectionTitle, subCard, Disclosure } from './panel-layout';
import { MoveButtons, dragHandle } from './move-buttons';
import { StyleEditor } from './style-editor';
import { defined } from '../../../../shared/defined';
import { formatRate } from '../../../../shared/typography';

const styles = {
  item: css({
    display: 'grid',
    gridTemplateColumns: 'auto minmax(0, 1fr) auto',
    gap: '3',
    alignItems: 'start',
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'lg',
    p: '3',
    bg: 'bg.surface',
  }),
  hidden: css({
    bg: 'bg.subtle',
    '& input[type=text], & input:not([type])': { color: 'fg.muted' },
  }),
  over: css({
    borderColor: 'accent.default',
    boxShadow: '0 -3px 0 token(colors.accent.default)',
  }),
  sum: css({ fontSize: 'sm', fontVariantNumeric: 'tabular-nums' }),
};

const round = (n: number) => Math.round(n * 10) / 10;

/** Tableau: which columns show, in which order, how wide and under which heading; the totals and subtotals. */
export function TableSection() {
  const snap = defined(useSnapshot(designer).draft, 'useSnapshot(designer).draft');
  const cols = snap.table.cols;
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const missing = TABLE_COLUMN_TYPES.filter((t) => !cols.some((c) => c.type === t));
  const [adding, setAdding] = useState<string>('');
  const visibleSum = round(cols.filter((c) => c.visible).reduce((sum, c) => sum + (Number.isFinite(c.width) ? (c.width ?? 0) : 0), 0));

  function fitWidths() {
    // Scales the visible columns so they fill the width exactly, keeping their proportions.
    const visible = draft().table.cols.filter((c) => c.visible);
    const total = visible.reduce((sum, c) => sum + (c.width ?? 0), 0);
    if (total <= 0)
      visible.forEach((c) => {
        c.width = round(100 / visible.length);
      });
    else
      visible.forEach((c) => {
        c.width = round(((c.width ?? 0) * 100) / total);
      });
  }

  return (
    <div className={panel}>
      <section className={subCard} aria-label="Colonnes du tableau">
        <p className={sectionTitle}>Colonnes</p>
        <p className={sectionNote}>
          Glissez une colonne pour la déplacer, ou utilisez Monter / Descendre. Les largeurs sont en % de la largeur du tableau.
        </p>
        <ol
          className={css({
            display: 'flex',
            flexDirection: 'column',
            gap: '2',
          })}
        >
          {cols.map((col, index) => {
            const name = col.label || TABLE_COLUMN_LABELS[col.type];
            return (
              <li
                key={col.type}
                className={cx(styles.item, !col.visible && styles.hidden, over === index && dragged !== index && styles.over)}
                onDragOver={(e) => {
                  if (dragged === null) return;
                  e.preventDefault();
                  setOver(index);
                }}
                onDragLeave={() => setOver((o) => (o === index ? null : o))}
                onDrop={(e) => {
                  e.preventDefault();
                  if (dragged !== null) move(draft().table.cols, dragged, index);
                  setDragged(null);
                  setOver(null);
                }}
              >
                <span
                  className={dragHandle}
                  draggable
                  title="Glisser pour déplacer"
                  aria-hidden
                  onDragStart={(e) => {
                    e.dataTransfer.effectAllowed = 'move';
                    e.dataTransfer.setData('text/plain', col.type);
                    setDragged(index);
                  }}
                  onDragEnd={() => {
                    setDragged(null);
                    return setOver(null);
                  }}
                >
                  ⠿
                </span>
                <div
                  className={css({
                    display: 'flex',
                    flexDirection: 'column',
                    gap: '2',
                    minW: '0',
                  })}
                >
                  <div
                    className={css({
                      display: 'flex',
                      gap: '3',
                      alignItems: 'center',
                      flexWrap: 'wrap',
                    })}
                  >
                    <strong className={css({ fontSize: 'sm' })}>{TABLE_COLUMN_LABELS[col.type]}</strong>
                    <Checkbox
                      checked={col.visible}
                      onChange={(visible) => (defined(draft().table.cols[index], 'draft().table.cols[index]').visible = visible)}
                    >
                      {/* Ark names the checkbox by its label part: « Visible » to the eye, the column's name to a screen reader. */}
                      <span aria-hidden="true">Visible</span>
                      <span className={css({ srOnly: true })}>Afficher la colonne {name}</span>
                    </Checkbox>
                  </div>
                  <div className={grid.medium}>
                    <TextInput
                      label={`Intitulé (${TABLE_COLUMN_LABELS[col.type]})`}
                      value={col.label}
                      path={`table.cols.${index}.label`}
                      onChange={(v) => (defined(draft().table.cols[index], 'draft().table.cols[index]').label = v)}
                    />
                    <NumberField
                      label={`Largeur (${TABLE_COLUMN_LABELS[col.type]})`}
                      unit="%"
                      min={0}
                      max={100}
                      value={col.width}
                      path={`table.cols.${index}.width`}
                      onChange={(v) => (defined(draft().table.cols[index], 'draft().table.cols[index]').width = v)}
                    />
                  </div>
                  {col.type === 'description' && (
                    <div
                      className={css({
                        display: 'flex',
                        gap: '4',
                        flexWrap: 'wrap',
                      })}
                    >
                      <CheckField
                        label="Nom de l’article"
                        checked={col.show_item ?? true}
                        onChange={(v) => (defined(draft().table.cols[index], 'draft().table.cols[index]').show_item = v)}
                      />
                      <CheckField
                        label="Référence (SKU)"
                        checked={col.show_sku ?? false}
                        onChange={(v) => (defined(draft().table.cols[index], 'draft().table.cols[index]').show_sku = v)}
                      />
                    </div>
                  )}
                  <Disclosure summary="Style de la colonne">
                    <StyleEditor
                      value={col.style}
                      edit={() => (defined(draft().table.cols[index], 'draft().table.cols[index]').style ??= {})}
                      path={`table.cols.${index}.style`}
                    />
                  </Disclosure>
                </div>
                <div
                  className={css({
                    display: 'flex',
                    flexDirection: 'column',
                    gap: '1',
                    alignItems: 'end',
                  })}
                >
                  <MoveButtons
                    name={`la colonne ${name}`}
                    index={index}
                    count={cols.length}
                    onMove={(to) => move(draft().table.cols, index, to)}
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Retirer la colonne ${name}`}
                    onClick={() => draft().table.cols.splice(index, 1)}
                    disabled={cols.length <= 1}
                  >
                    Retirer
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
        <div
          className={css({
            display: 'flex',
            gap: '3',
            alignItems: 'end',
            flexWrap: 'wrap',
          })}
        >
          <p className={styles.sum} data-testid="table-width-sum">
            Largeur des colonnes visibles :{' '}
            <strong
              className={css({
                color: visibleSum === 100 ? 'success' : 'warning',
              })}
            >
              {formatRate(visibleSum)}
            </strong>
            {visibleSum !== 100 && ` (${formatRate(100)} attendus)`}
          </p>
          {visibleSum !== 100 && (
            <Button size="sm" variant="outline" onClick={fitWidths}>
              Ajuster à 100 %
            </Button>
          )}
        </div>
        {missing.length > 0 && (
          <div
            className={css({
              display: 'flex',
              gap: '2',
              alignItems: 'end',
              flexWrap: 'wrap',
            })}
          >
            <div className={css({ minW: '56' })}>
              <SelectField
                label="Colonne à ajouter"
                value={adding}
                options={[
                  { value: '', label: 'Choisir…' },
                  ...missing.map((t) => ({
                    value: t,
                    label: TABLE_COLUMN_LABELS[t],
                  })),
                ]}
                onChange={setAdding}
              />
            </div>
            <Button
              size="sm"
              variant="outline"
              disabled={!adding}
              onClick={() => {
                const type = adding as (typeof TABLE_COLUMN_TYPES)[number];
                draft().table.cols.push({
                  type,
                  label: TABLE_COLUMN_LABELS[type],
                  visible: true,
                  width: 10,
                });
                setAdding('');
              }}
            >
              Ajouter la colonne
            </Button>
          </div>
        )}
      </section>

      <section className={subCard} aria-label="Totaux">
        <p className={sectionTitle}>Totaux</p>
        <div className={grid.wide}>
          {(Object.keys(TOTALS_LABELS) as (keyof typeof TOTALS_LABELS)[]).map((key) => (
            <CheckField
              key={key}
              label={TOTALS_LABELS[key]}
              checked={snap.table.totals[key]}
              onChange={(v) => (draft().table.totals[key] = v)}
            />
          ))}
        </div>
        <p className={sectionTitle}>Sur plusieurs pages</p>
        <CheckField
          label="Sous-total en bas de chaque page"
          checked={snap.table.show_subtotal}
          onChange={(v) => (draft().table.show_subtotal = v)}
        />
        <CheckField
          label="Report du sous-total en haut de la page suivante"
          checked={snap.table.show_subtotal_previous}
          onChange={(v) => (draft().table.show_subtotal_previous = v)}
        />
      </section>
    </div>
  );
}
