import Papa from 'papaparse';
import type { CatalogueBuyer, CatalogueItem } from '../../../common/calls/catalogues';
import { dotStyleFor, normaliseVatLabel, parseTyped, refusedText, type InvoiceDraft } from '../../../common/money';
import type { Bilingual } from '../../../common/model';
import type { Store } from '../store';

export interface CsvImportResult {
  imported: number;
  skipped: number;
  problems: Array<{ row: number; message: Bilingual }>;
}

interface ItemRow {
  code: string;
  name: string;
  unit: string;
  price: string;
  vat_rate: string;
  uses: number;
}
interface BuyerRow {
  tax_code: string;
  legal_name: string;
  address: string;
  contact: string;
  email: string;
  phone: string;
  code: string;
  uses: number;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/g, 'd').replace(/Đ/g, 'D').toLowerCase().trim();

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Header aliases accepted in CSV files (English, Vietnamese, and the InvoiceData names). */
const ITEM_HEADERS: Record<string, keyof Omit<ItemRow, 'uses'>> = {
  code: 'code',
  itemcode: 'code',
  ma: 'code',
  mahang: 'code',
  name: 'name',
  itemname: 'name',
  ten: 'name',
  tenhang: 'name',
  unit: 'unit',
  unitname: 'unit',
  dvt: 'unit',
  donvitinh: 'unit',
  donvi: 'unit',
  price: 'price',
  unitprice: 'price',
  dongia: 'price',
  gia: 'price',
  vat: 'vat_rate',
  vatrate: 'vat_rate',
  vatratename: 'vat_rate',
  thuesuat: 'vat_rate',
  thue: 'vat_rate',
};
const BUYER_HEADERS: Record<string, keyof Omit<BuyerRow, 'uses'>> = {
  taxcode: 'tax_code',
  buyertaxcode: 'tax_code',
  mst: 'tax_code',
  masothue: 'tax_code',
  legalname: 'legal_name',
  buyerlegalname: 'legal_name',
  name: 'legal_name',
  ten: 'legal_name',
  tendonvi: 'legal_name',
  address: 'address',
  buyeraddress: 'address',
  diachi: 'address',
  contact: 'contact',
  buyerfullname: 'contact',
  fullname: 'contact',
  nguoimua: 'contact',
  lienhe: 'contact',
  email: 'email',
  buyeremail: 'email',
  phone: 'phone',
  buyerphonenumber: 'phone',
  dienthoai: 'phone',
  sdt: 'phone',
  code: 'code',
  buyercode: 'code',
  makhachhang: 'code',
  makh: 'code',
};

const headerKey = (h: string) => fold(h).replace(/[^a-z0-9]/g, '');

/**
 * The items and buyers catalogues: searched by the drafting form's autocomplete, learned from
 * explicitly saved drafts, importable from CSV (papaparse).
 */
export class Catalogues {
  constructor(
    private readonly store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {}

  searchItems(query: string, limit = 10): CatalogueItem[] {
    const q = fold(query);
    const like = `%${escapeLike(q)}%`;
    const rows = this.store.db
      .prepare(
        `SELECT code, name, unit, price, vat_rate, uses FROM catalogue_items
         WHERE ? = '' OR key LIKE ? ESCAPE '\\' OR lower(code) LIKE ? ESCAPE '\\'
         ORDER BY (lower(code) = ?) DESC, (key LIKE ? ESCAPE '\\') DESC, uses DESC, name LIMIT ?`,
      )
      .all(q, like, like, q, `${escapeLike(q)}%`, limit) as unknown as ItemRow[];
    return rows.map((r) => ({ code: r.code, name: r.name, unit: r.unit, price: r.price, vatRate: r.vat_rate, uses: r.uses }));
  }

  searchBuyers(query: string, limit = 10): CatalogueBuyer[] {
    const q = fold(query);
    const like = `%${escapeLike(q)}%`;
    const rows = this.store.db
      .prepare(
        `SELECT tax_code, legal_name, address, contact, email, phone, code, uses FROM catalogue_buyers
         WHERE ? = '' OR key LIKE ? ESCAPE '\\' OR tax_code LIKE ? ESCAPE '\\'
         ORDER BY (tax_code = ?) DESC, uses DESC, legal_name LIMIT ?`,
      )
      .all(q, like, like, query.trim(), limit) as unknown as BuyerRow[];
    return rows.map((r) => ({
      taxCode: r.tax_code,
      legalName: r.legal_name,
      address: r.address,
      contact: r.contact,
      email: r.email,
      phone: r.phone,
      code: r.code,
      uses: r.uses,
    }));
  }

  /** Upserts one item; the search key is the folded "code name". */
  upsertItem(item: Omit<ItemRow, 'uses'>, countUse: boolean): void {
    const name = item.name.trim();
    if (!name) return;
    const code = item.code.trim();
    const key = fold(`${code} ${name}`);
    this.store.db
      .prepare(
        `INSERT INTO catalogue_items (key, code, name, unit, price, vat_rate, uses, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET unit = excluded.unit, price = excluded.price, vat_rate = excluded.vat_rate,
           uses = uses + excluded.uses, updated_at = excluded.updated_at`,
      )
      .run(key, code, name, item.unit.trim(), item.price.trim(), item.vat_rate.trim(), countUse ? 1 : 0, this.now().toISOString());
  }

  upsertBuyer(buyer: Omit<BuyerRow, 'uses'>, countUse: boolean): void {
    const legalName = buyer.legal_name.trim();
    if (!legalName) return;
    const taxCode = buyer.tax_code.trim();
    const key = taxCode ? `${taxCode} ${fold(legalName)}` : fold(legalName);
    this.store.db
      .prepare(
        `INSERT INTO catalogue_buyers (key, tax_code, legal_name, address, contact, email, phone, code, uses, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET legal_name = excluded.legal_name, address = excluded.address, contact = excluded.contact,
           email = excluded.email, phone = excluded.phone, code = excluded.code, uses = uses + excluded.uses, updated_at = excluded.updated_at`,
      )
      .run(
        key,
        taxCode,
        legalName,
        buyer.address.trim(),
        buyer.contact.trim(),
        buyer.email.trim(),
        buyer.phone.trim(),
        buyer.code.trim(),
        countUse ? 1 : 0,
        this.now().toISOString(),
      );
  }

  /** What a saved draft teaches: its buyer and its goods lines. Call inside the save transaction. */
  learnFromDraft(draft: InvoiceDraft): void {
    this.upsertBuyer(
      {
        tax_code: draft.BuyerTaxCode,
        legal_name: draft.BuyerLegalName,
        address: draft.BuyerAddress,
        contact: draft.BuyerFullName,
        email: draft.BuyerEmail,
        phone: draft.BuyerPhoneNumber,
        code: draft.BuyerCode,
      },
      true,
    );
    for (const line of draft.lines) {
      if (line.ItemType !== 1 && line.ItemType !== 5) continue;
      this.upsertItem(
        {
          code: line.ItemCode,
          name: line.ItemName,
          unit: line.UnitName,
          price: refusedText(line.UnitPrice) === null ? line.UnitPrice : '',
          vat_rate: line.VATRateName,
        },
        true,
      );
    }
  }

  importCsv(kind: 'items' | 'buyers', csv: string): CsvImportResult {
    const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: 'greedy',
      transformHeader: headerKey,
      delimitersToGuess: [',', ';', '\t', '|'],
    });
    const problems: CsvImportResult['problems'] = [];
    for (const e of parsed.errors.slice(0, 20)) {
      problems.push({ row: (e.row ?? -1) + 2, message: { en: `CSV: ${e.message}`, vi: `CSV: ${e.message}` } });
    }
    const map = kind === 'items' ? ITEM_HEADERS : BUYER_HEADERS;
    const fields = parsed.meta.fields ?? [];
    const known = fields.filter((f) => map[f] !== undefined);
    const nameField = kind === 'items' ? 'name' : 'legal_name';
    if (!known.some((f) => map[f] === nameField)) {
      return {
        imported: 0,
        skipped: parsed.data.length,
        problems: [
          {
            row: 1,
            message: {
              en: `The header row has no ${kind === 'items' ? 'name' : 'legalName'} column (found: ${fields.join(', ') || 'none'}).`,
              vi: `Dòng tiêu đề thiếu cột ${kind === 'items' ? 'tên hàng (name)' : 'tên đơn vị (legalName)'} (đang có: ${fields.join(', ') || 'không có'}).`,
            },
          },
        ],
      };
    }
    let imported = 0;
    let skipped = 0;
    this.store.transaction(() => {
      parsed.data.forEach((record, index) => {
        const row: Record<string, string> = {};
        for (const f of known) row[map[f]!] = String(record[f] ?? '').trim();
        const rowNo = index + 2;
        if (!row[nameField]) {
          skipped++;
          if (problems.length < 100) problems.push({ row: rowNo, message: { en: 'No name: row skipped.', vi: 'Thiếu tên: bỏ qua dòng.' } });
          return;
        }
        if (kind === 'items') {
          let price = row.price ?? '';
          if (price) {
            // Catalogue prices are in đồng: read like a price typed in the grid (25.000 = 25000).
            const r = parseTyped(price, { dot: dotStyleFor('amount', 'VND') });
            if (r.kind !== 'ok') {
              skipped++;
              const why = r.kind === 'refused' ? r : { en: 'not a number', vi: 'không phải số' };
              if (problems.length < 100) problems.push({ row: rowNo, message: { en: `Price: ${why.en} Row skipped.`, vi: `Đơn giá: ${why.vi} Bỏ qua dòng.` } });
              return;
            }
            price = r.text;
          }
          const vatText = row.vat_rate ?? '';
          const vat = vatText ? (normaliseVatLabel(/^\d+(\.\d+)?$/.test(vatText) ? `${vatText}%` : vatText) ?? null) : '';
          if (vat === null) {
            skipped++;
            if (problems.length < 100)
              problems.push({
                row: rowNo,
                message: { en: `VAT rate "${vatText}" is not known: row skipped.`, vi: `Thuế suất "${vatText}" không hợp lệ: bỏ qua dòng.` },
              });
            return;
          }
          this.upsertItem({ code: row.code ?? '', name: row.name ?? '', unit: row.unit ?? '', price, vat_rate: vat }, false);
        } else {
          this.upsertBuyer(
            {
              tax_code: row.tax_code ?? '',
              legal_name: row.legal_name ?? '',
              address: row.address ?? '',
              contact: row.contact ?? '',
              email: row.email ?? '',
              phone: row.phone ?? '',
              code: row.code ?? '',
            },
            false,
          );
        }
        imported++;
      });
    });
    return { imported, skipped, problems };
  }
}
