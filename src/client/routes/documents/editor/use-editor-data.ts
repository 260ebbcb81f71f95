import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { useSearch } from 'wouter';
import { trpc } from '../../../trpc';
import type { DocumentType } from '../../../../shared/schemas/document';
import { editor, isDirty, loadEditor } from '../../../stores/document-editor';
import { defaultDeliveryAddress } from '../../../../shared/legal-mentions';
import { addDays, blankForm, draftOf, today } from './form-state';
import { useTaxRules } from '../../../lib/use-tax-rules';

/**
 * What the editor, the preview and the payments tab need: the document (when it has an id), the organisation's
 * settings, taxes and units. Loads into the editor's store the document as the server holds it now, and a new form
 * With the template's predefined texts for the type when there is no id.
 */
export function useEditorData(type: DocumentType, id: number | undefined) {
  const key = `${type}:${id ?? 'new'}`;
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 60_000 });
  const template = trpc.settings.get.useQuery({ key: 'document' }, { staleTime: 60_000 });
  const taxes = trpc.taxes.list.useQuery(undefined, { staleTime: 60_000 });
  const units = trpc.units.list.useQuery(undefined, { staleTime: 60_000 });
  // Their rates prefill the exchange rate of a document in another currency.
  const currencies = trpc.currencies.list.useQuery(undefined, { staleTime: 60_000 });
  const rules = useTaxRules();
  // Fetched again on every opening: a cached answer may predate the last save ("lost edit").
  const doc = trpc.documents.get.useQuery({ id: id ?? 0 }, { enabled: Boolean(id), refetchOnMount: 'always' });
  const fresh = doc.isFetchedAfterMount && !doc.isFetching ? doc.data : undefined;
  // From a customer's page (/invoices/new/add?customer=12): the new document starts with that customer.
  const search = useSearch();
  const presetId = id ? 0 : Number(new URLSearchParams(search).get('customer')) || 0;
  const preset = trpc.customers.get.useQuery({ id: presetId }, { enabled: presetId > 0, retry: false });
  const snap = useSnapshot(editor);

  const appSettings = settings.data && 'currency_format' in settings.data ? settings.data : undefined;
  const templateData = template.data && 'data' in template.data ? template.data.data : undefined;

  useEffect(() => {
    if (id) {
      // Unsaved edits of this document stay (moving between its tabs loses nothing; their save is checked against the
      // version they started from); otherwise the form shows the server's current version.
      if (!fresh || (editor.key === key && (isDirty(editor) || editor.base === fresh.updated_at))) return;
      loadEditor(key, draftOf(fresh), fresh.updated_at);
      return;
    }
    if (editor.key === key) return;
    if (appSettings && templateData && !(presetId > 0 && preset.isPending)) {
      const texts = templateData.texts[type];
      const c = preset.data;
      const customer = c
        ? { customer_id: c.id, currency: c.currency, maturity: addDays(today(), c.maturity), delivery_address: defaultDeliveryAddress(c) }
        : {};
      loadEditor(
        key,
        blankForm(type, { header: texts.header, footer: texts.footer, currency: appSettings.currency_format.currency, ...customer }),
      );
    }
  }, [key, id, fresh, appSettings, templateData, type, presetId, preset.isPending, preset.data]);

  return {
    key,
    ready: snap.key === key && snap.form !== null && (!id || doc.isFetchedAfterMount) && rules.ready,
    doc: doc.data,
    /** The customer's name to show in the picker before any document exists. */
    customerName: doc.data?.customer?.name ?? preset.data?.name,
    docError: doc.error,
    settings: appSettings,
    taxes: taxes.data?.data ?? [],
    units: units.data?.data ?? [],
    currencies: currencies.data?.data ?? [],
    /** VAT regime and taxes per line: what the line and shipping choices offer. */
    rules: { vat: rules.vat, multiple: rules.multiple },
  };
}
