import { useState } from 'react';
import { formatRate } from '../../../shared/typography';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/routers/_app';
import { formatDateShort } from '../../../shared/format';
import { Dialog } from '../../components/ui/dialog';
import { csvNumber, ReportCard } from './report-card';
import { isSale } from '../../../shared/vat-return/ca3-lines';
import { operationLink } from '../../../shared/vat-return/operation-link';
import { VAT_OPERATION_LINES, type VatOperationLine } from '../../../shared/vat-return/operation-lines';
import { VatOperationsDialog } from './vat-operations-dialog';
import { vatItemsTable } from './vat-items-style';

type VatReport = inferRouterOutputs<AppRouter>['reports']['vat'];
type VatLine = VatReport['lines'][number];

const styles = {
  note: css({ fontSize: 'sm', color: 'fg.muted', mt: '3' }),
  basis: css({ color: 'fg.muted', fontSize: 'xs' }),
};

const NATURES = { goods: 'Biens', services: 'Services' } as const;

/** A line whose operations the server pages (its own, not a total's): what a return too large to list them offers. */
const pagedLine = (code: string): VatOperationLine | null =>
  (VAT_OPERATION_LINES as readonly string[]).includes(code) ? (code as VatOperationLine) : null;

/** A line's value as the form shows it: the tax, or the base where the line has no tax column (cadre A). */
const lineValue = (l: VatLine) => l.tax ?? l.base ?? 0;
/** Shown: every line with something, and the totals an empty period still states. */
const shown = (l: VatLine, lines: VatLine[]) =>
  lineValue(l) !== 0 ||
  (l.base ?? 0) !== 0 ||
  ['16', '23'].includes(l.code) ||
  (l.code === '28' && !lines.some((x) => x.code === '25' && (x.tax ?? 0) > 0));

/**
 * The VAT return of the period (CA3 for a month or a quarter; over a year, what the CA12 of the simplified regime
 * sums): each line of the form that has something, and behind each, on a click, the documents and expenses it adds up.
 */
/** The operations behind a line: its own, or for a total those of the lines it sums (A1: the sales only, isSale). */
const itemsOf = (line: VatLine, lines: VatLine[]): VatLine['items'] =>
  line.code === 'A1'
    ? itemsOf({ ...line, code: '16' }, lines).filter((i) => isSale({ reverseCharge: i.reverse_charge }))
    : line.sums.length === 0
      ? line.items
      : lines
          .filter((l) => line.sums.includes(l.code))
          .flatMap((l) => l.items)
          .sort((a, b) => a.date.localeCompare(b.date));

export function VatReturnCard({
  vat,
  yearly,
  format,
  range,
}: {
  vat: VatReport | undefined;
  yearly: boolean;
  format: (n: number) => string;
  range: { from: string; to: string };
}) {
  const [open, setOpen] = useState<VatLine | null>(null);
  // The line last paged stays after its dialog closes: the dialog keeps its identity while it closes and gives the focus
  // back to « Voir les opérations »; another line gets a dialog of its own, on its first page.
  const [paged, setPaged] = useState<{ code: VatOperationLine; label: string; open: boolean } | null>(null);
  const lines = vat?.lines.filter((l) => shown(l, vat.lines)) ?? [];
  // A long period's return comes without its operations (too many to list): its lines still show.
  const any = vat ? vat.items_omitted === true || vat.lines.some((l) => l.items.length > 0) : false;
  const all = vat?.lines ?? [];
  const opened = open ? itemsOf(open, all) : [];
  // Too many operations to send with the return: each line of its own pages them from the server.
  const pagedAction = (l: VatLine) => {
    const code = vat?.items_omitted ? pagedLine(l.code) : null;
    if (code === null || ((l.base ?? 0) === 0 && (l.tax ?? 0) === 0)) return undefined;
    return {
      label: 'Voir les opérations',
      name: `Ligne ${l.code} : voir les opérations`,
      run: () => setPaged({ code, label: l.label, open: true }),
    };
  };
  return (
    <>
      <ReportCard
        title={yearly ? 'TVA de l’année (récapitulatif de la CA12, régime simplifié)' : 'TVA (déclaration CA3)'}
        file="tva-ca3"
        empty="Ni TVA collectée ni TVA déductible sur cette période."
        table={{
          header: ['Ligne', 'Libellé', 'Base HT', 'TVA'],
          numeric: [false, false, true, true],
          rows: any
            ? lines.map((l) => ({
                cells: [l.code, l.label, l.base === null ? '' : format(l.base), l.tax === null ? '' : format(l.tax)],
                csv: [l.code, l.label, l.base === null ? '' : csvNumber(l.base), l.tax === null ? '' : csvNumber(l.tax)],
                open: itemsOf(l, all).length > 0 ? () => setOpen(l) : undefined,
                openLabel: `Ligne ${l.code} : voir les ${itemsOf(l, all).length} opérations`,
                action: pagedAction(l),
              }))
            : [],
        }}
      >
        <p className={styles.note}>
          {vat?.basis === 'debits'
            ? 'TVA sur les débits (option choisie dans Paramètres → Infos de l’entreprise) : biens et services à la facturation.'
            : 'Biens : TVA due à la facturation ; services : à l’encaissement, au prorata des paiements reçus.'}{' '}
          Acomptes : à l’encaissement. TVA déductible : biens à la facture, services une fois payés.{' '}
          {vat?.items_omitted
            ? 'Trop d’opérations sur cette période pour les joindre à la déclaration : « Voir les opérations » les montre ligne par ligne, page par page.'
            : 'Cliquez sur une ligne pour voir les pièces qui la composent.'}
          {yearly && ' La CA12 reprend ces montants sur l’exercice et en déduit les acomptes semestriels versés.'}
        </p>
      </ReportCard>
      <Dialog open={open !== null} onClose={() => setOpen(null)} title={open ? `Ligne ${open.code} — ${open.label}` : ''} width={880}>
        {open && (
          <div className={css({ overflowX: 'auto' })}>
            <table className={vatItemsTable}>
              <caption className={css({ srOnly: true })}>Opérations de la ligne {open.code}</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Pièce</th>
                  <th scope="col">Tiers</th>
                  <th scope="col">Nature</th>
                  <th scope="col" className="num">
                    Taux
                  </th>
                  <th scope="col" className="num">
                    Base HT
                  </th>
                  <th scope="col" className="num">
                    TVA
                  </th>
                </tr>
              </thead>
              <tbody>
                {opened.map((i) => (
                  <tr key={`${i.source} ${i.id} ${i.nature} ${i.rate} ${i.line}`}>
                    <td>{formatDateShort(i.date)}</td>
                    <td>
                      <Link href={operationLink(i)}>{i.reference || (i.source === 'expense' ? 'Dépense' : 'Document')}</Link>
                      <div className={styles.basis}>{i.basis}</div>
                    </td>
                    <td>{i.party}</td>
                    <td>{i.nature ? NATURES[i.nature] : ''}</td>
                    <td className="num">{formatRate(i.rate)}</td>
                    <td className="num">{format(i.base)}</td>
                    <td className="num">{format(i.tax)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td colSpan={5}>Total de la ligne {open.code}</td>
                  <td className="num">{open.base === null ? '' : format(open.base)}</td>
                  <td className="num">{open.tax === null ? '' : format(open.tax)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </Dialog>
      <VatOperationsDialog
        key={paged?.code}
        line={paged?.open ? paged : null}
        range={range}
        format={format}
        onClose={() => setPaged(paged && { ...paged, open: false })}
      />
    </>
  );
}
