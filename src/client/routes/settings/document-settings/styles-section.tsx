import { useState } from 'react';
import { useSnapshot } from 'valtio';
import type { Style } from '../../../../shared/schemas/style';
import type { DocumentTemplate } from '../../../../shared/schemas/template';
import { Tabs } from '../../../components/ui/tabs';
import { designer, draft } from './designer-store';
import { panel, sectionNote } from './panel-layout';
import { StyleEditor } from './style-editor';
import { defined } from '../../../../shared/defined';

type TableStyle = DocumentTemplate['table']['style'];
type Part = 'general' | 'thead' | 'odd' | 'even' | 'total' | 'tfoot';

const PARTS: {
  value: Part;
  label: string;
  path: string;
  pick: (s: TableStyle) => Style;
}[] = [
  {
    value: 'general',
    label: 'Général',
    path: 'table.style.general',
    pick: (s) => s.general,
  },
  {
    value: 'thead',
    label: 'En-tête du tableau',
    path: 'table.style.thead',
    pick: (s) => s.thead,
  },
  {
    value: 'odd',
    label: 'Lignes impaires',
    path: 'table.style.tbody.odd',
    pick: (s) => s.tbody.odd,
  },
  {
    value: 'even',
    label: 'Lignes paires',
    path: 'table.style.tbody.even',
    pick: (s) => s.tbody.even,
  },
  {
    value: 'total',
    label: 'Ligne de total',
    path: 'table.style.total',
    pick: (s) => s.total,
  },
  {
    value: 'tfoot',
    label: 'Pied du tableau',
    path: 'table.style.tfoot',
    pick: (s) => s.tfoot,
  },
];

/** Styles: the table's general, head, odd and even rows, total and foot, with the option lists. */
export function StylesSection() {
  const snap = defined(useSnapshot(designer).draft, 'useSnapshot(designer).draft');
  const [part, setPart] = useState<Part>('thead');
  return (
    <div className={panel}>
      <p className={sectionNote}>Chaque partie hérite du style général ; « Par défaut » ou un champ vide garde la valeur héritée.</p>
      <Tabs
        label="Partie du tableau"
        size="sm"
        value={part}
        onChange={setPart}
        items={PARTS.map((p) => ({
          value: p.value,
          label: p.label,
          content: (
            <StyleEditor table value={p.pick(snap.table.style as TableStyle)} edit={() => p.pick(draft().table.style)} path={p.path} />
          ),
        }))}
      />
    </div>
  );
}
