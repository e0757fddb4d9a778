import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { TInvoice } from '@air/shared/schemas/billing';
import type { TDb } from '../../db/client';
import { invoices } from '../../db/schema/invoices';
import { deriveKey } from '../../lib/crypto';
import { CURSOR_TIME, cursorTime, decodeCursor, encodeCursor } from '../../lib/cursor';
import { ownerContacts } from '../membership/service';
import type { TInvoiceRow } from './records';

const PDF_LINK_TTL_MS = 60 * 60_000;

function signature(secret: string, invoiceId: string, expires: number): string {
  return createHmac('sha256', deriveKey(secret, 'invoice-pdf'))
    .update(`${invoiceId}.${expires}`)
    .digest('base64url');
}

/** A short-lived token that lets the invoice's PDF open in a new tab without the bearer header. */
export function pdfToken(secret: string, invoiceId: string, now = Date.now()): string {
  const expires = now + PDF_LINK_TTL_MS;
  return `${expires}.${signature(secret, invoiceId, expires)}`;
}

export function pdfTokenValid(secret: string, invoiceId: string, token: string, now = Date.now()): boolean {
  const [expiresText, given] = token.split('.');
  const expires = Number(expiresText);
  if (!given || !Number.isFinite(expires) || expires < now) return false;
  const expected = Buffer.from(signature(secret, invoiceId, expires));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function invoiceWire(row: TInvoiceRow, secret: string): TInvoice {
  return {
    id: row.id,
    number: row.number,
    date: row.date.toISOString(),
    status: row.status as TInvoice['status'],
    total: row.total,
    currency: row.currency,
    currency_symbol: row.currencySymbol,
    lines: row.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unit_amount: line.unitAmount,
      amount: line.amount,
    })),
    invoice_pdf: `/api/account/invoice/${row.id}/pdf?token=${pdfToken(secret, row.id)}`,
  };
}

const INVOICE_NUMBER = /^[A-Z0-9-]{1,64}$/;

/**
 * One page of the account's invoices, newest first (date, then number: unique), and the cursor
 * after its last (decision 051).
 */
export async function listInvoices(
  db: TDb,
  accountId: string,
  page: { cursor?: string; limit: number },
): Promise<{ rows: TInvoiceRow[]; next_cursor: string | null }> {
  const after = page.cursor ? decodeCursor(page.cursor, [CURSOR_TIME, INVOICE_NUMBER]) : undefined;
  const found = await db
    .select({ row: invoices, at: cursorTime(invoices.date) })
    .from(invoices)
    .where(
      and(
        eq(invoices.accountId, accountId),
        after
          ? sql`(${invoices.date}, ${invoices.number}) < (${after[0]}::timestamptz, ${after[1]})`
          : undefined,
      ),
    )
    .orderBy(desc(invoices.date), desc(invoices.number))
    .limit(page.limit + 1);
  const rows = found.slice(0, page.limit);
  const last = rows.at(-1);
  return {
    rows: rows.map(({ row }) => row),
    next_cursor: found.length > page.limit && last ? encodeCursor(last.at, last.row.number) : null,
  };
}

export async function findInvoice(
  db: TDb,
  id: string,
  accountId: string | null,
): Promise<TInvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(accountId ? and(eq(invoices.id, id), eq(invoices.accountId, accountId)) : eq(invoices.id, id))
    .limit(1);
  return row ?? null;
}

/** Who the invoice is from: the configured seller's lines (INVOICE_SELLER), name first. */
export type TSeller = readonly string[];

/** Who it is billed to: the organisation, then its billing contact (the owners) and their addresses. */
export interface TBillTo {
  name: string;
  contacts: { name: string; email: string }[];
}

/** The invoice's bill-to block: the account's name as invoiced, and its owners as they are now. */
export async function billToOf(db: TDb, row: TInvoiceRow): Promise<TBillTo> {
  const contacts = row.accountId ? await ownerContacts(db, row.accountId) : [];
  return {
    name: row.accountName || 'Closed account',
    contacts: contacts.map((owner) => ({ name: owner.name, email: owner.email })),
  };
}

function amountText(symbol: string, minor: number): string {
  const sign = minor < 0 ? '-' : '';
  return `${sign}${symbol}${(Math.abs(minor) / 100).toFixed(2)}`;
}

function seatsText(seats: number): string {
  return `${seats} ${seats === 1 ? 'seat' : 'seats'}`;
}

/**
 * The invoice as a PDF (pdfkit, built-in Helvetica): the seller and the bill-to blocks, the seats
 * charged, the lines (a plan line names its seats), subtotal, tax 0, total.
 */
export async function renderInvoicePdf(row: TInvoiceRow, seller: TSeller, billTo: TBillTo): Promise<Buffer> {
  // pdfkit (with its font code) is loaded on the first invoice download, not at start.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    // Uncompressed: a few kilobytes, and its text stays searchable by simple tools.
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      compress: false,
      info: { Title: `Invoice ${row.number}`, Author: seller[0] ?? '' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const symbol = row.currencySymbol;
    const seatLines = row.lines.filter((line) => typeof line.seats === 'number');

    doc.fontSize(20).text('Invoice', { align: 'right' });
    doc.fontSize(10).text(`Number: ${row.number}`, { align: 'right' });
    doc.text(`Date: ${row.date.toISOString().slice(0, 10)}`, { align: 'right' });
    doc.text(`Status: ${row.status}`, { align: 'right' });
    if (seatLines.length > 0) {
      doc.text(`Seats charged: ${Math.max(...seatLines.map((line) => line.seats!))}`, { align: 'right' });
    }
    doc.moveDown();
    const top = doc.y;
    doc.fontSize(12).text('From', 50, top, { underline: true, width: 230 });
    doc.fontSize(10);
    for (const line of seller) doc.text(line, { width: 230 });
    const fromBottom = doc.y;
    doc.fontSize(12).text('Bill to', 310, top, { underline: true, width: 235 });
    doc.fontSize(10).text(billTo.name, { width: 235 });
    for (const contact of billTo.contacts) doc.text(`${contact.name} <${contact.email}>`, { width: 235 });
    doc.x = 50;
    doc.y = Math.max(fromBottom, doc.y);
    doc.moveDown();

    const columns = [50, 300, 370, 460];
    const header = doc.y;
    doc.fontSize(10).text('Description', columns[0], header).text('Quantity', columns[1], header);
    doc.text('Unit price', columns[2], header).text('Amount', columns[3], header);
    doc.moveDown(0.5);
    for (const line of row.lines) {
      const y = doc.y;
      const description =
        typeof line.seats === 'number' ? `${line.description} (${seatsText(line.seats)})` : line.description;
      doc.text(description, columns[0], y, { width: 240 });
      const after = doc.y;
      doc.text(String(line.quantity), columns[1], y);
      doc.text(amountText(symbol, line.unitAmount), columns[2], y);
      doc.text(amountText(symbol, line.amount), columns[3], y);
      doc.y = Math.max(after, doc.y);
      doc.moveDown(0.3);
    }
    doc.moveDown();
    const subtotal = row.lines.reduce((sum, line) => sum + line.amount, 0);
    for (const [label, value] of [
      ['Subtotal', amountText(symbol, subtotal)],
      ['Tax (0%)', amountText(symbol, 0)],
      ['Total', amountText(symbol, row.total)],
    ] as const) {
      const y = doc.y;
      doc.text(label, columns[2], y).text(value, columns[3], y);
      doc.moveDown(0.3);
    }
    doc.moveDown(2);
    doc.fontSize(8).text(`Currency: ${row.currency.toUpperCase()}. Amounts include no tax (0%).`, 50);
    doc.end();
  });
}
