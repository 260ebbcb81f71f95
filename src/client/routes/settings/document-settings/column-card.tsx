import { useState } from 'react';
import { useSnapshot, type Snapshot } from 'valtio';
import { css, cx } from '../../../../../styled-system/css';
import { TEMPLATE_ELEMENT_TYPES, type TemplateElement } from '../../../../shared/schemas/template';
import { ELEMENT_LABELS } from '../../../../shared/template-labels';
import { Button } from '../../../components/ui/button';
import { column, designer, draft, justAdded, keyOf, move, moveElement, newElement, type Area, type Column } from './designer-store';
import { ElementItem } from './element-item';
import { SelectField } from './fields';
import { grid, Disclosure } from './panel-layout';
import { MoveButtons } from './move-buttons';
import { StyleEditor } from './style-editor';
import { defined } from '../../../../shared/defined';

const SPANS = Array.from({ length: 12 }, (_, i) => ({
  value: i + 1,
  label: `${i + 1} / 12`,
}));
const OFFSETS = Array.from({ length: 12 }, (_, i) => ({
  value: i,
  label: i === 0 ? 'Aucun' : `${i} / 12`,
}));
const TEXT_ALIGN = [
  { value: 'left', label: 'Gauche' },
  { value: 'center', label: 'Centré' },
  { value: 'right', label: 'Droite' },
] as const;
const ALIGN = [
  { value: 'start', label: 'En haut' },
  { value: 'center', label: 'Au milieu' },
  { value: 'end', label: 'En bas' },
] as const;
const TYPE_OPTIONS = [...TEMPLATE_ELEMENT_TYPES]
  .map((t) => ({ value: t, label: ELEMENT_LABELS[t] }))
  .sort((a, b) => a.label.localeCompare(b.label, 'fr'));

const styles = {
  card: css({
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'lg',
    bg: 'bg.canvas',
    p: '2.5',
    display: 'flex',
    flexDirection: 'column',
    gap: '2.5',
    minW: '0',
  }),
  head: css({
    display: 'flex',
    alignItems: 'center',
    gap: '1',
    fontSize: 'xs',
    fontWeight: '700',
    color: 'fg.muted',
    textTransform: 'uppercase',
    letterSpacing: '0.04em',
  }),
  list: css({ display: 'flex', flexDirection: 'column', gap: '1.5' }),
  drop: css({
    borderWidth: '1px',
    borderStyle: 'dashed',
    borderColor: 'border.strong',
    borderRadius: 'md',
    fontSize: 'xs',
    color: 'fg.muted',
    textAlign: 'center',
    py: '2',
  }),
  dropOver: css({
    borderColor: 'accent.default',
    bg: 'accent.subtle',
    color: 'accent.fg',
  }),
};

interface Props {
  area: Area;
  row: number;
  index: number;
  count: number;
  value: Snapshot<Column>;
}

/** A column of a row: its width and offset on the 12-column grid, its alignment, and its elements. */
export function ColumnCard({ area, row, index, count, value }: Props) {
  const { dragging } = useSnapshot(designer);
  const [type, setType] = useState<TemplateElement['type']>('text');
  const [over, setOver] = useState(false);
  const address = { area, row, column: index };
  const path = `${area}.${row}.columns.${index}`;
  const edit = () => column(address);
  const name = `la colonne ${index + 1}`;
  const elements = edit().elements;

  return (
    <section className={styles.card} aria-label={`Ligne ${row + 1}, colonne ${index + 1}`}>
      <div className={styles.head}>
        <span className={css({ flex: '1' })}>Colonne {index + 1}</span>
        <MoveButtons
          name={name}
          index={index}
          count={count}
          onMove={(to) => move(defined(draft()[area][row], 'draft()[area][row]').columns, index, to)}
        />
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Supprimer ${name} de la ligne ${row + 1}`}
          onClick={() => defined(draft()[area][row], 'draft()[area][row]').columns.splice(index, 1)}
        >
          ✕
        </Button>
      </div>
      <div className={grid.narrow}>
        <SelectField label="Largeur" value={value.cols} options={SPANS} path={`${path}.cols`} onChange={(v) => (edit().cols = v)} />
        <SelectField
          label="Décalage"
          value={value.offset}
          options={OFFSETS}
          path={`${path}.offset`}
          onChange={(v) => (edit().offset = v)}
        />
        <SelectField label="Aligner le texte" value={value.text_align} options={TEXT_ALIGN} onChange={(v) => (edit().text_align = v)} />
        <SelectField label="Aligner verticalement" value={value.align} options={ALIGN} onChange={(v) => (edit().align = v)} />
      </div>
      <ul className={styles.list} aria-label={`Éléments de la ligne ${row + 1}, colonne ${index + 1}`}>
        {value.elements.map((element, i) => (
          <ElementItem
            key={keyOf(defined(elements[i], 'elements[i]'))}
            address={{ ...address, index: i }}
            value={element}
            count={value.elements.length}
            target={defined(elements[i], 'elements[i]')}
          />
        ))}
      </ul>
      {dragging && (
        // biome-ignore lint/a11y/noStaticElementInteractions: a drop zone for the mouse; the move buttons do the same by keyboard
        <div
          className={cx(styles.drop, over && styles.dropOver)}
          onDragOver={(e) => {
            e.preventDefault();
            return setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            if (designer.dragging)
              moveElement(designer.dragging, {
                ...address,
                index: value.elements.length,
              });
            designer.dragging = null;
          }}
        >
          Déposer ici
        </div>
      )}
      <div className={css({ display: 'flex', gap: '1.5', alignItems: 'end' })}>
        <div className={css({ flex: '1', minW: '0' })}>
          <SelectField label="Élément à ajouter" value={type} options={TYPE_OPTIONS} onChange={setType} />
        </div>
        <Button
          size="sm"
          variant="outline"
          className={css({ h: '9' })}
          onClick={() => {
            const element = newElement(type);
            edit().elements.push(element);
            // The proxy valtio made of it, so the new item opens its options.
            justAdded.add(defined(edit().elements.at(-1), 'edit().elements.at(-1)'));
          }}
        >
          Ajouter
        </Button>
      </div>
      <Disclosure summary="Style de la colonne">
        <StyleEditor value={value.style} edit={() => (edit().style ??= {})} path={`${path}.style`} />
      </Disclosure>
    </section>
  );
}
