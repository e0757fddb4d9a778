import type { TPayoutLine } from '@air/shared/schemas/payout';
import type { payouts } from '../../../db/schema/payouts';

type TPayoutRow = typeof payouts.$inferSelect;

/** What the statement says it is for. */
export interface TStatementParty {
  /** The provider's account name. */
  name: string;
  symbol: string;
  seller: readonly string[];
}

const KIND_TEXT: Record<TPayoutLine['kind'], string> = {
  earning: 'Earnings',
  refund: 'Refunded to callers',
  chargeback: 'Chargebacks',
};

/** Minor units as `1234.56`, integers only (the CSV's numbers, which spreadsheets read). */
export function minorText(minor: number): string {
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function money(symbol: string, minor: number): string {
  return minor < 0 ? `-${symbol}${minorText(-minor)}` : `${symbol}${minorText(minor)}`;
}

/** One CSV cell (RFC 4180); a leading = + - @ is neutralised so a spreadsheet never runs it. */
function cell(value: string | number): string {
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The statement as CSV: one row per line, then the total, amounts as decimals beside the currency. */
export function statementCsv(row: TPayoutRow, lines: TPayoutLine[]): string {
  const currency = row.currency.toUpperCase();
  const table: (string | number)[][] = [
    ['payout', 'period', 'kind', 'route', 'month', 'calls', 'gross', 'fee', 'net', 'currency'],
    ...lines.map((line) => [
      row.id,
      row.period,
      line.kind,
      line.route_name,
      line.month,
      line.calls,
      minorText(line.gross),
      minorText(line.fee),
      minorText(line.net),
      currency,
    ]),
    [row.id, row.period, 'total', '', '', '', '', '', minorText(row.amount), currency],
  ];
  return `${table.map((cells) => cells.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** The statement as a PDF (pdfkit, as the invoices): who is paid, where, and the lines it pays. */
export async function statementPdf(
  row: TPayoutRow,
  lines: TPayoutLine[],
  party: TStatementParty,
): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      compress: false,
      info: { Title: `Payout statement ${row.period}`, Author: party.seller[0] ?? '' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const symbol = party.symbol;
    doc.fontSize(20).text('Payout statement', { align: 'right' });
    doc.fontSize(10).text(`Period: ${row.period}`, { align: 'right' });
    doc.text(`Payout: ${row.id}`, { align: 'right' });
    doc.text(`Status: ${row.status}${row.paidAt ? `, paid ${row.paidAt.toISOString().slice(0, 10)}` : ''}`, {
      align: 'right',
    });
    if (row.destination) doc.text(`Paid to: ${row.destination}`, { align: 'right' });
    doc.moveDown();
    const top = doc.y;
    doc.fontSize(12).text('From', 50, top, { underline: true, width: 230 });
    doc.fontSize(10);
    for (const line of party.seller) doc.text(line, { width: 230 });
    const fromBottom = doc.y;
    doc.fontSize(12).text('Paid to', 310, top, { underline: true, width: 235 });
    doc.fontSize(10).text(party.name, { width: 235 });
    doc.x = 50;
    doc.y = Math.max(fromBottom, doc.y);
    doc.moveDown();
    const columns = [50, 250, 300, 350, 420, 490];
    const header = doc.y;
    doc.text('Line', columns[0], header).text('Month', columns[1], header).text('Calls', columns[2], header);
    doc.text('Gross', columns[3], header).text('Fee', columns[4], header).text('Net', columns[5], header);
    doc.moveDown(0.5);
    for (const line of lines) {
      const y = doc.y;
      doc.text(`${KIND_TEXT[line.kind]}: ${line.route_name}`, columns[0], y, { width: 195 });
      const after = doc.y;
      doc.text(line.month, columns[1], y).text(String(line.calls), columns[2], y);
      doc.text(money(symbol, line.gross), columns[3], y).text(money(symbol, line.fee), columns[4], y);
      doc.text(money(symbol, line.net), columns[5], y);
      doc.y = Math.max(after, doc.y);
      doc.moveDown(0.3);
    }
    doc.moveDown();
    const y = doc.y;
    doc.text('Total paid', columns[3], y).text(money(symbol, row.amount), columns[5], y);
    doc.moveDown(2);
    doc.fontSize(8).text(`Currency: ${row.currency.toUpperCase()}. Net = gross less the platform fee.`, 50);
    doc.end();
  });
}
