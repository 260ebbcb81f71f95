import { useState } from 'react';
import { useSnapshot, type Snapshot } from 'valtio';
import { css, cx } from '../../../../../styled-system/css';
import type { TemplateElement } from '../../../../shared/schemas/template';
import { ELEMENT_LABELS } from '../../../../shared/template-labels';
import { Button } from '../../../components/ui/button';
import { column, designer, justAdded, move, moveElement, type ElementAddress } from './designer-store';
import { ElementOptions, elementSummary } from './element-options';
import { dragHandle, MoveButtons } from './move-buttons';
import { defined } from '../../../../shared/defined';

const styles = {
  item: css({
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'md',
    bg: 'bg.surface',
  }),
  over: css({
    borderColor: 'accent.default',
    boxShadow: '0 -3px 0 token(colors.accent.default)',
  }),
  line: css({
    display: 'flex',
    alignItems: 'center',
    gap: '1.5',
    px: '1.5',
    py: '1',
    minH: '9',
  }),
  name: css({
    flex: '1',
    minW: '0',
    fontSize: 'sm',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  }),
  summary: css({ color: 'fg.muted', ml: '1' }),
  options: css({
    borderTopWidth: '1px',
    borderColor: 'border.default',
    p: '3',
  }),
};

interface Props {
  address: ElementAddress;
  value: Snapshot<TemplateElement>;
  count: number;
  /** The draft's element (a stable proxy), to edit. */
  target: TemplateElement;
}

/** One element of a column: drag it, move it with Monter / Descendre, open its options, remove it. */
export function ElementItem({ address, value, count, target }: Props) {
  const { dragging } = useSnapshot(designer);
  const [open, setOpen] = useState(() => justAdded.has(target));
  const [over, setOver] = useState(false);
  const name = ELEMENT_LABELS[value.type];
  const path = `${address.area}.${address.row}.columns.${address.column}.elements.${address.index}`;
  const optionsId = `options-${path.replaceAll('.', '-')}`;
  return (
    <li
      className={cx(styles.item, over && styles.over)}
      data-testid="template-element"
      onDragOver={(e) => {
        if (!designer.dragging) return;
        e.preventDefault();
        e.stopPropagation();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        e.stopPropagation();
        setOver(false);
        if (designer.dragging) moveElement(designer.dragging, address);
        designer.dragging = null;
      }}
    >
      <div className={styles.line}>
        <span
          className={dragHandle}
          draggable
          aria-hidden
          title="Glisser pour déplacer"
          onDragStart={(e) => {
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', name);
            designer.dragging = { ...address };
          }}
          onDragEnd={() => (designer.dragging = null)}
        >
          ⠿
        </span>
        <span className={cx(styles.name, dragging && css({ pointerEvents: 'none' }))}>
          {name}
          <span className={styles.summary}>{elementSummary(value)}</span>
        </span>
        <MoveButtons name={name} index={address.index} count={count} onMove={(to) => move(column(address).elements, address.index, to)} />
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={open}
          aria-controls={optionsId}
          aria-label={`Options : ${name}`}
          onClick={() => setOpen(!open)}
        >
          Options
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Supprimer ${name}`}
          onClick={() => column(address).elements.splice(address.index, 1)}
        >
          ✕
        </Button>
      </div>
      {open && (
        <div id={optionsId} className={styles.options}>
          <ElementOptions
            value={value}
            edit={() => defined(column(address).elements[address.index], 'column(address).elements[address.index]')}
            path={path}
          />
        </div>
      )}
    </li>
  );
}
