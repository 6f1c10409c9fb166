import type { CDPSession, Page } from '@playwright/test';
import { emptyLine, type DraftLine } from '../../common/money';
import { expect, hostCall, openNewDraft, test, type HostProcess } from './fixtures';

const LINES = 400;

// The last line has no name: the problems list offers to go to it.
const lines = (): DraftLine[] =>
  Array.from({ length: LINES }, (_, i) => ({
    ...emptyLine(1),
    ItemName: i === LINES - 1 ? '' : `Mặt hàng số ${i + 1}`,
    UnitName: 'cái',
    Quantity: '2',
    UnitPrice: String(10_000 + i),
    VATRateName: '10%',
  }));

/** The grid's lines in the DOM, and those of them on the screen. */
async function drawnRows(page: Page): Promise<{ drawn: number; onScreen: number; last: number }> {
  return page.evaluate(() => {
    const bodies = Array.from(document.querySelectorAll<HTMLElement>('tbody.line-body'));
    const onScreen = bodies.filter((b) => {
      const r = b.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight;
    }).length;
    return { drawn: bodies.length, onScreen, last: Number(bodies[bodies.length - 1]?.dataset.index ?? -1) };
  });
}

/** Opens a new 400-line draft (at 1366×768 unless told) and waits for its first line. */
async function openLongDraft(page: Page, host: HostProcess, width = 1366): Promise<void> {
  await page.setViewportSize({ width, height: 768 });
  await openNewDraft(page, host, (draft) => ({
    ...draft,
    BuyerLegalName: 'Công ty TNHH Hoa Sen',
    BuyerTaxCode: '0101243150',
    BuyerAddress: '12 Hàng Bài, Hà Nội',
    lines: lines(),
  }));
  await expect(page.getByRole('textbox', { name: 'Số lượng, dòng 1', exact: true })).toBeVisible();
}

test('a 400-line draft draws only the lines near the screen, at its end as at its start', async ({ page, host }, testInfo) => {
  await openLongDraft(page, host);
  // Three lines are kept ready beyond each edge of the screen (one more allowed for a line cut by an edge).
  const fewDrawn = async () => {
    const r = await drawnRows(page);
    return r.onScreen > 0 && r.drawn <= r.onScreen + 4 ? 'few' : `${r.drawn} lines drawn for ${r.onScreen} on the screen`;
  };
  await expect.poll(fewDrawn).toBe('few');

  // At the end the totals fill the lower part of the screen: they are not taken for more lines.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const lastQty = page.getByRole('textbox', { name: `Số lượng, dòng ${LINES}`, exact: true });
  await expect(lastQty).toBeVisible();
  await expect.poll(async () => (await drawnRows(page)).last).toBe(LINES - 1);
  await expect.poll(fewDrawn).toBe('few');
  // Nothing blank between the last line and the totals.
  const gap = await page.evaluate(() => {
    const table = document.querySelector('table.line-grid')!.getBoundingClientRect();
    const bodies = document.querySelectorAll('tbody.line-body');
    return table.bottom - bodies[bodies.length - 1]!.getBoundingClientRect().bottom;
  });
  expect(Math.abs(gap)).toBeLessThan(40);

  // Typing in the last line still moves the totals.
  const total = page.getByTestId('total-amount');
  const before = await total.textContent();
  await lastQty.click();
  await page.keyboard.press('End');
  await page.keyboard.type('0');
  await expect(total).not.toHaveText(before ?? '');
  await page.screenshot({ path: testInfo.outputPath('long-draft-end.png') });

  // And back at the top, line 1 is drawn again.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('textbox', { name: 'Số lượng, dòng 1', exact: true })).toBeVisible();
  await expect.poll(fewDrawn).toBe('few');

  // From the top, the problems list goes to the last line: its name cell is focused, on the screen.
  await page.getByRole('button', { name: `Dòng ${LINES}: cần nhập tên hàng hóa, dịch vụ.` }).click();
  const lastName = page.getByRole('combobox', { name: `Tên hàng hóa, dịch vụ, dòng ${LINES}`, exact: true });
  await expect(lastName).toBeFocused();
  await expect(lastName).toBeInViewport();
  await expect.poll(fewDrawn).toBe('few');

  // One more problem below the grid (a wrong buyer email) makes the page below it taller: still few lines.
  await page.getByLabel('Email', { exact: true }).fill('sai-dia-chi');
  await expect(page.getByRole('button', { name: '"sai-dia-chi" không phải địa chỉ email hợp lệ.' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(async () => (await drawnRows(page)).last).toBe(LINES - 1);
  await expect.poll(fewDrawn).toBe('few');
});

type TraceEvent = { name: string; ph: string; args?: { beginData?: { dirtyObjects?: number; totalObjects?: number } } };

/** Chromium's own record of every layout while `act` runs: how many layout objects each one went through. */
async function layoutsDuring(page: Page, act: () => Promise<void>): Promise<number[]> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline', transferMode: 'ReportEvents' } as never);
  await act();
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  return events.filter((e) => e.name === 'Layout' && e.ph === 'X').map((e) => e.args?.beginData?.totalObjects ?? Number.NaN);
}

// What a keystroke changes (the field, the line's amount, the totals, the words, the bar's total,
// the save state) is laid out in boxes of its own: Chromium lays out those boxes, not the page,
// which with a long draft's rows on screen is some thousand objects.
// A narrow window too, where the bar's words take two lines.
for (const width of [1366, 1024]) {
  test(`typing in a long draft lays out the boxes it changes, never the whole page (${width} px wide)`, async ({ page, host }) => {
    await openLongDraft(page, host, width);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const qty = page.getByRole('textbox', { name: `Số lượng, dòng ${LINES}`, exact: true });
    await qty.click();
    await page.keyboard.press('End');
    const total = page.getByTestId('total-amount');
    await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');

    // Control: the page itself, laid out whole (a change of its width), is some thousand objects.
    const whole = await layoutsDuring(page, () =>
      page.evaluate(() => {
        document.body.style.paddingRight = '1px';
        void document.body.offsetHeight;
        document.body.style.paddingRight = '';
        void document.body.offsetHeight;
      }),
    );
    const wholePage = Math.max(...whole);
    expect(wholePage).toBeGreaterThan(800);

    const type = async (keys: string[]) => {
      for (const key of keys) {
        const before = await total.textContent();
        await page.keyboard.press(key);
        await expect(total).not.toHaveText(before ?? '');
      }
    };
    // A figure wider than ever before makes room once (a layout of what is around it): 2 → 299 → 2.
    await type(['9', '9', 'Backspace', 'Backspace']);
    await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');
    // Anything the scroll, the click and the saves set off is done before the typing is traced.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const typed = await layoutsDuring(page, async () => {
      // 2 → 27 → 2 → 23 → 235 → 23 → 2: every figure stays within the room it had.
      await type(['7', 'Backspace', '3', '5', 'Backspace', 'Backspace']);
      // The autosave goes out and comes back: the save state changes twice more.
      await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');
    });
    await expect(qty).toHaveValue('2');
    expect(typed.length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...typed), `objects laid out per layout while typing (the page: ${wholePage}): ${typed.join(', ')}`).toBeLessThan(100);
  });
}

test('a long draft saves only the lines typed in, and saves whole when it was saved elsewhere since', async ({ page, host }) => {
  const saves: Array<{ name: string; bytes: number }> = [];
  page.on('request', (request) => {
    const name = /\/api\/call\/(drafts\.save\w*)$/.exec(request.url())?.[1];
    if (name) saves.push({ name, bytes: request.postDataBuffer()?.length ?? 0 });
  });
  await openLongDraft(page, host);
  const id = await page.evaluate(() => sessionStorage.getItem('einvoice.openDraft'));
  const stored = async () => (await hostCall<{ draft: { BuyerAddress: string; lines: DraftLine[] }; revision: number }>(host, 'drafts.get', { id })).draft;
  const saved = page.getByTestId('save-state');
  const qty = (line: number) => page.getByRole('textbox', { name: `Số lượng, dòng ${line}`, exact: true });

  // The first save after opening sends the whole draft; the next ones only the line typed in.
  await qty(1).fill('3');
  await expect(saved).toHaveText('Đã lưu');
  await qty(2).fill('5');
  await expect(saved).toHaveText('Đã lưu');
  expect(saves.map((s) => s.name)).toEqual(['drafts.save', 'drafts.saveChanges']);
  expect(saves[1]!.bytes, 'one line and the header, not 400 lines').toBeLessThan(saves[0]!.bytes / 20);
  expect((await stored()).lines.map((l) => l.Quantity).slice(0, 3)).toEqual(['3', '5', '2']);

  // Another window saves the draft: the next save here is refused as based on an old revision,
  // writes nothing, and the whole draft goes instead (the last save wins, as before).
  const other = await stored();
  await hostCall(host, 'drafts.save', { id, draft: { ...other, BuyerAddress: 'Sửa ở cửa sổ khác' } });
  await qty(3).fill('7');
  await expect(saved).toHaveText('Đã lưu');
  expect(saves.map((s) => s.name)).toEqual(['drafts.save', 'drafts.saveChanges', 'drafts.saveChanges', 'drafts.save']);
  const after = await stored();
  expect(after.lines.map((l) => l.Quantity).slice(0, 4)).toEqual(['3', '5', '7', '2']);
  expect(after.BuyerAddress).toBe('12 Hàng Bài, Hà Nội');
  expect(after.lines).toHaveLength(LINES);

  // A line added: the count changed, so the draft goes whole.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await qty(LINES).focus();
  await page.keyboard.press('Control+Enter');
  await expect(qty(LINES + 1)).toBeAttached();
  await expect(saved).toHaveText('Đã lưu');
  expect(saves.at(-1)!.name).toBe('drafts.save');
  expect((await stored()).lines).toHaveLength(LINES + 1);
});
