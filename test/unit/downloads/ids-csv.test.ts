import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { failedItemsCsv } from '../../../main/services/downloads/csv';
import { parseIdsText } from '../../../common/rules/transaction-ids';

describe('parseIdsText', () => {
  it('reads one ID per line, dropping blanks and duplicates with counts', () => {
    expect(parseIdsText('A1\nB2\n\nA1\r\n  C3  \n\n')).toEqual({ ids: ['A1', 'B2', 'C3'], duplicates: 1, blanks: 2 });
  });
  it('splits pasted IDs separated by spaces', () => {
    expect(parseIdsText('A1 B2  B2').ids).toEqual(['A1', 'B2']);
  });
  it('reads the TransactionID column of a CSV with a header', () => {
    const csv = '\uFEFFSTT,TransactionID,Buyer\n1,X1,"Công ty, A"\n2,X2,B\n3,,C\n4,X1,D\n';
    expect(parseIdsText(csv, 'list.csv')).toEqual({ ids: ['X1', 'X2'], duplicates: 1, blanks: 1 });
  });
  it('takes the first column of a CSV without a header (semicolons too)', () => {
    expect(parseIdsText('X1;a\nX2;b\n', 'x.csv').ids).toEqual(['X1', 'X2']);
  });
  it('splits a typed or pasted list on new lines, commas, semicolons, tabs and spaces', () => {
    expect(parseIdsText('A,B,C').ids).toEqual(['A', 'B', 'C']);
    expect(parseIdsText('A;B;C').ids).toEqual(['A', 'B', 'C']);
    expect(parseIdsText('A\tB\tC').ids).toEqual(['A', 'B', 'C']);
    expect(parseIdsText('A,B\nC;D E\tF, ,G').ids).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    expect(parseIdsText('A, B;\r\nB\n')).toEqual({ ids: ['A', 'B'], duplicates: 1, blanks: 0 });
  });

  it('reads a pasted table headed TransactionID by that column', () => {
    expect(parseIdsText('Buyer,TransactionID\nCông ty A,X1\nB,X2\n').ids).toEqual(['X1', 'X2']);
  });

  it('reads the first column of rows pasted from a spreadsheet (tabs)', () => {
    expect(parseIdsText('X1\tCông ty A\nX2\tB\n').ids).toEqual(['X1', 'X2']);
  });
  it('keeps hostile IDs as they are (names are made safe later)', () => {
    expect(parseIdsText('../x\nCON\n').ids).toEqual(['../x', 'CON']);
  });
});

describe('failedItemsCsv', () => {
  it('writes code and bilingual message, quoted, formula-safe, round-trippable', () => {
    const csv = failedItemsCsv([
      { transactionId: 'A1', errorCode: 'InvoiceNotExist', message: { en: 'The invoice does not exist, "really"', vi: 'Hóa đơn không tồn tại' } },
      { transactionId: '=cmd()', errorCode: null, message: null },
    ]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<string[]>(csv.slice(1).trim()).data;
    expect(rows[0]).toEqual(['TransactionID', 'ErrorCode', 'Message', 'MessageVi']);
    expect(rows[1]).toEqual(['A1', 'InvoiceNotExist', 'The invoice does not exist, "really"', 'Hóa đơn không tồn tại']);
    expect(rows[2]![0]).toBe("'=cmd()");
  });
});
