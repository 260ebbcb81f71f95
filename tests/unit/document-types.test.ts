import { describe, expect, it } from 'vitest';
import { byType, DOCUMENT_TYPE_TABLE, LIST_TABLE, pdfFileName } from '../../src/shared/document-types';
import { DOCUMENT_TYPES, LIST_TYPES } from '../../src/shared/schemas/document';
import { EDITOR_TITLES, LIST_BASES, maturityLabel, NUMBER_LABELS, showsTotal, TYPE_LABELS } from '../../src/shared/status';
import { effectiveStatus, hasEinvoice, isLegalRecord, OPEN_STATUSES } from '../../src/shared/document-status';

const FIELDS = Object.keys(DOCUMENT_TYPE_TABLE.invoice).sort();

describe('the one table per document type', () => {
  it.each(DOCUMENT_TYPES)('%s has every field, none empty', (type) => {
    const info = DOCUMENT_TYPE_TABLE[type];
    expect(Object.keys(info).sort()).toEqual(FIELDS);
    for (const [field, value] of Object.entries(info)) {
      if (typeof value === 'string') expect(value.trim(), field).not.toBe('');
    }
  });

  it('holds every document type and nothing else', () => {
    expect(Object.keys(DOCUMENT_TYPE_TABLE).sort()).toEqual([...DOCUMENT_TYPES].sort());
    expect(Object.keys(LIST_TABLE).sort()).toEqual([...LIST_TYPES].sort());
  });

  it('says the SPEC §9 number labels letter for letter', () => {
    expect(byType((t) => t.numberLabel)).toEqual({
      invoice: 'Facture n°',
      estimate: 'Devis n°',
      proforma: 'Pro forma n°',
      order: 'Commande n°',
      delivery: 'Livraison n°',
      credit: 'Crédit n°',
    });
    expect(NUMBER_LABELS).toEqual(byType((t) => t.numberLabel));
  });

  it('says the SPEC §9 maturity labels letter for letter', () => {
    expect(byType((t) => t.maturityLabel)).toEqual({
      invoice: "Date d'échéance",
      estimate: "Valide jusqu'au",
      proforma: "Valide jusqu'au",
      order: 'Date de livraison',
      delivery: 'Date de livraison',
      credit: "Date d'échéance",
    });
    for (const type of DOCUMENT_TYPES) expect(maturityLabel(type)).toBe(DOCUMENT_TYPE_TABLE[type].maturityLabel);
  });

  it('says the SPEC §2 editor titles, list titles and bases letter for letter', () => {
    expect(EDITOR_TITLES).toEqual({
      invoice: 'Nouvelle facture',
      estimate: 'Nouveau devis',
      proforma: 'Créer une proforma',
      order: 'Créer un bon de commande',
      delivery: 'Créer un bon de livraison',
      credit: 'Créer un avoir',
      recurring: 'Créer une facture régulière',
    });
    expect(LIST_BASES).toEqual({
      invoice: '/invoices',
      estimate: '/estimates',
      proforma: '/proformas',
      order: '/orders',
      delivery: '/deliveries',
      credit: '/credits',
      recurring: '/recurring',
    });
    expect(Object.fromEntries(Object.entries(LIST_TABLE).map(([t, i]) => [t, i.listTitle]))).toEqual({
      invoice: 'Factures',
      estimate: 'Devis',
      proforma: 'Proformas',
      order: 'Bons de commande',
      delivery: 'Bons de livraison',
      credit: 'Avoirs',
      recurring: 'Factures récurrentes',
    });
  });

  it('names the types in messages and menus', () => {
    expect(byType((t) => t.the)).toEqual({
      invoice: 'cette facture',
      estimate: 'ce devis',
      proforma: 'cette proforma',
      order: 'ce bon de commande',
      delivery: 'ce bon de livraison',
      credit: 'cet avoir',
    });
    expect(TYPE_LABELS.order).toEqual({ one: 'Bon de commande', article: 'un bon de commande' });
    expect(DOCUMENT_TYPE_TABLE.proforma.title).toBe('Facture pro forma');
  });

  it('keeps the rules that depend on the type', () => {
    expect(DOCUMENT_TYPES.filter(showsTotal)).toEqual(['invoice', 'estimate', 'proforma', 'order', 'credit']);
    expect(DOCUMENT_TYPES.filter(isLegalRecord)).toEqual(['invoice', 'credit']);
    expect(DOCUMENT_TYPES.filter((t) => DOCUMENT_TYPE_TABLE[t].receivesPayments)).toEqual(['invoice']);
  });

  it('names the PDF files', () => {
    expect(pdfFileName('invoice', 'standard', 'F2026-0042')).toBe('Facture-F2026-0042.pdf');
    expect(pdfFileName('invoice', 'deposit', 'F2026-0043')).toBe('Facture-acompte-F2026-0043.pdf');
    expect(pdfFileName('order', 'standard', 'BC 2026/9')).toBe('Bon-de-commande-BC-2026-9.pdf');
  });

  it('gives an e-invoice to exactly the types its guard names, the legal records', () => {
    expect(DOCUMENT_TYPES.filter(hasEinvoice)).toEqual(['invoice', 'credit']);
    expect(DOCUMENT_TYPES.filter(hasEinvoice)).toEqual(DOCUMENT_TYPES.filter(isLegalRecord));
  });

  it('calls overdue exactly the open invoices past their maturity', () => {
    expect(OPEN_STATUSES).toEqual(['unpaid', 'partial']);
    for (const status of ['unpaid', 'partial', 'paid', 'canceled', 'draft'] as const)
      expect(effectiveStatus({ type: 'invoice', status, maturity: '2026-01-01' }, '2026-02-01'), status).toBe(
        OPEN_STATUSES.includes(status) ? 'overdue' : status,
      );
  });
});
