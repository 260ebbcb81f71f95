import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { DOCUMENT_TYPES, type DocumentType } from '../../../../shared/schemas/document';
import { TEMPLATE_TYPE_LABELS } from '../../../../shared/template-labels';
import { designer, draft } from './designer-store';
import { SelectField, TextAreaField } from './fields';
import { panel, sectionNote } from './panel-layout';
import { defined } from '../../../../shared/defined';

const TYPE_OPTIONS = DOCUMENT_TYPES.map((t) => ({
  value: t,
  label: TEMPLATE_TYPE_LABELS[t],
}));

/** Textes prédéfinis: what a new document of each type starts with above and below its lines. */
export function TextsSection() {
  const snap = defined(useSnapshot(designer).draft, 'useSnapshot(designer).draft');
  const [type, setType] = useState<DocumentType>('invoice');
  const texts = snap.texts[type];
  return (
    <div className={panel}>
      <p className={sectionNote}>
        Ces textes remplissent l’en-tête et le pied de page de chaque nouveau document ; ils restent modifiables dans le document. Ils
        s’affichent là où la mise en page place les éléments « Texte d’en-tête » et « Texte de pied de page ».
      </p>
      <SelectField label="Type de document" value={type} options={TYPE_OPTIONS} onChange={setType} />
      <TextAreaField
        label={`En-tête (${TEMPLATE_TYPE_LABELS[type]})`}
        rows={4}
        value={texts.header}
        path={`texts.${type}.header`}
        placeholder="Ex. : Suite à notre échange, voici notre proposition."
        onChange={(v) => (draft().texts[type].header = v)}
      />
      <TextAreaField
        label={`Pied de page (${TEMPLATE_TYPE_LABELS[type]})`}
        rows={4}
        value={texts.footer}
        path={`texts.${type}.footer`}
        placeholder="Ex. : Merci pour votre confiance."
        onChange={(v) => (draft().texts[type].footer = v)}
      />
    </div>
  );
}
