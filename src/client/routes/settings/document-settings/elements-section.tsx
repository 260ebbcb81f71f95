import { useState } from 'react';
import { Tabs } from '../../../components/ui/tabs';
import { AreaEditor } from './area-editor';
import type { Area } from './designer-store';

const AREAS: { value: Area; label: string }[] = [
  { value: 'header', label: 'En-tête' },
  { value: 'elements_following_pages', label: 'Pages suivantes' },
  { value: 'footer', label: 'Pied de page' },
];

/** Éléments: the three lists of rows of the template — first-page header, following pages' header, footer. */
export function ElementsSection({ invalidAreas }: { invalidAreas: ReadonlySet<string> }) {
  const [area, setArea] = useState<Area>('header');
  return (
    <Tabs
      label="Zone de la page"
      size="sm"
      value={area}
      onChange={setArea}
      items={AREAS.map((a) => ({
        value: a.value,
        label: a.label,
        invalid: invalidAreas.has(a.value),
        content: <AreaEditor area={a.value} />,
      }))}
    />
  );
}
