import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { useSearch } from 'wouter';
import { trpc } from '../../../trpc';
import type { DocumentType } from '../../../../shared/schemas/document';
import { editor, loadEditor } from '../../../stores/document-editor';
import { addDays, blankForm, draftOf, today } from './form-state';

/**
 * What the editor, the preview and the payments tab need: the document (when it has an id), the organisation's
 * settings, taxes and units. Loads the document into the editor's store once per document, and a new form with
 * the template's predefined texts for the type when there is no id (SPEC §4).
 */
export function useEditorData(type: DocumentType, id: number | undefined) {
  const key = `${type}:${id ?? 'new'}`;
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 60_000 });
  const template = trpc.settings.get.useQuery({ key: 'document' }, { staleTime: 60_000 });
  const taxes = trpc.taxes.list.useQuery(undefined, { staleTime: 60_000 });
  const units = trpc.units.list.useQuery(undefined, { staleTime: 60_000 });
  const doc = trpc.documents.get.useQuery({ id: id ?? 0 }, { enabled: Boolean(id) });
  // From a customer's page (/invoices/new/add?customer=12): the new document starts with that customer.
  const search = useSearch();
  const presetId = id ? 0 : Number(new URLSearchParams(search).get('customer')) || 0;
  const preset = trpc.customers.get.useQuery({ id: presetId }, { enabled: presetId > 0, retry: false });
  const snap = useSnapshot(editor);

  const appSettings = settings.data && 'currency_format' in settings.data ? settings.data : undefined;
  const templateData = template.data && 'data' in template.data ? template.data.data : undefined;

  useEffect(() => {
    if (editor.key === key) return;
    if (id && doc.data) loadEditor(key, draftOf(doc.data));
    if (!id && appSettings && templateData && !(presetId > 0 && preset.isPending)) {
      const texts = templateData.texts[type];
      const c = preset.data;
      const customer = c ? { customer_id: c.id, currency: c.currency, maturity: addDays(today(), c.maturity) } : {};
      loadEditor(
        key,
        blankForm(type, { header: texts.header, footer: texts.footer, currency: appSettings.currency_format.currency, ...customer }),
      );
    }
  }, [key, id, doc.data, appSettings, templateData, type, presetId, preset.isPending, preset.data]);

  return {
    key,
    ready: snap.key === key && snap.form !== null,
    doc: doc.data,
    /** The customer's name to show in the picker before any document exists. */
    customerName: doc.data?.customer?.name ?? preset.data?.name,
    docError: doc.error,
    settings: appSettings,
    taxes: taxes.data?.data ?? [],
    units: units.data?.data ?? [],
  };
}
