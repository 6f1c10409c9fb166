import { startSandbox, type Sandbox } from '../../main/sandbox';
import { expect, test } from './fixtures';

test('first run lands on the built-in Sandbox and works with no setup', async ({ app }) => {
  await expect(app.getByText('Môi trường thử nghiệm (Sandbox)')).toBeVisible();
  await app.getByRole('button', { name: 'Cài đặt' }).click();
  await expect(app.getByText(/SANDBOX — dịch vụ thử nghiệm chạy ngay trên máy này/)).toBeVisible();
  await expect(app.getByTestId('auth-state')).toContainText('Sandbox tự đăng nhập');
  // Nothing to sign out of: the Sandbox signs itself in.
  await expect(app.getByRole('button', { name: 'Đăng xuất' })).toHaveCount(0);
  // No setup at all: the templates of the (simulated) service are there.
  await app.getByRole('button', { name: 'Mẫu hóa đơn' }).click();
  await expect(app.getByRole('cell', { name: /^1C\d\dTAA$/ })).toBeVisible();
});

test('a Custom profile with an http:// address that is not this computer is refused, naming the field', async ({ app }) => {
  await app.getByRole('button', { name: 'Cài đặt' }).click();
  await app.getByLabel('Tên cấu hình').fill('Cửa hàng');
  await app.getByLabel('Loại kết nối').selectOption({ label: 'Tùy chỉnh' });
  await app.getByLabel('Địa chỉ dịch vụ (base URL)').fill('http://hoadon.example.vn/api/integration/invoice');
  await app.getByRole('button', { name: 'Thêm cấu hình' }).click();
  await expect(app.getByRole('alert')).toContainText('Địa chỉ dịch vụ (base URL): http:// chỉ được dùng cho chính máy này');
  await expect(app.getByLabel('Địa chỉ dịch vụ (base URL)')).toHaveAttribute('aria-invalid', 'true');
  await expect(app.getByRole('button', { name: 'Dùng cấu hình Cửa hàng' })).toHaveCount(0);
});

test.describe('signing in and the connection state', () => {
  let sandbox: Sandbox;
  test.beforeAll(async () => {
    sandbox = await startSandbox({ invoiceCount: 50 });
  });
  test.afterAll(async () => {
    await sandbox?.close();
  });

  test('signing in with a token, a token that follows its origin (Settings warns before a move to another server, which signs out), going offline and online again are all visible', async ({
    app,
  }) => {
    await app.getByRole('button', { name: 'Cài đặt' }).click();
    // A loopback service is allowed over http://.
    await app.getByLabel('Tên cấu hình').fill('Quầy 1');
    await app.getByLabel('Loại kết nối').selectOption({ label: 'Tùy chỉnh' });
    await app.getByLabel('Địa chỉ dịch vụ (base URL)').fill(sandbox.baseUrl);
    await app.getByRole('button', { name: 'Thêm cấu hình' }).click();
    await app.getByRole('button', { name: 'Dùng cấu hình Quầy 1' }).click();
    await expect(app.getByTestId('auth-state')).toContainText('Chưa đăng nhập');
    await expect(app.getByRole('button', { name: 'Đăng xuất' })).toHaveCount(0);

    // A password half-typed below is not what a token sign-in sends, so it stays.
    const account = app.getByRole('form', { name: 'Đăng nhập bằng tài khoản' });
    await account.getByLabel('Mật khẩu', { exact: true }).fill('mat-khau-quay-1');
    await app.getByLabel('Token truy cập').fill(sandbox.devToken);
    await app.getByRole('button', { name: 'Đăng nhập bằng token' }).click();
    await expect(app.getByTestId('auth-state')).toContainText('Đã đăng nhập');
    await expect(app.getByLabel('Token truy cập')).toHaveValue('');
    await expect(account.getByLabel('Mật khẩu', { exact: true })).toHaveValue('mat-khau-quay-1');
    await expect(app.getByText(sandbox.devToken)).toHaveCount(0); // never shown back
    await expect(app.getByRole('button', { name: 'Đăng xuất' })).toBeVisible();
    await app.getByRole('button', { name: 'Kiểm tra kết nối Quầy 1' }).click();
    await expect(app.getByText(/Kết nối được: \d+ mẫu hóa đơn\./)).toBeVisible();

    // Moving the profile to another server warns before saving, then signs it out: the token never
    // follows to the new host.
    await app.getByRole('button', { name: 'Sửa cấu hình Quầy 1' }).click();
    const moved = new URL(sandbox.baseUrl);
    moved.port = String(Number(moved.port) + 1);
    await app.getByLabel('Địa chỉ dịch vụ (base URL)').fill(moved.toString());
    await expect(app.getByRole('alert').filter({ hasText: 'Địa chỉ mới thuộc máy chủ khác' })).toBeVisible();
    await app.getByLabel('Địa chỉ dịch vụ (base URL)').fill(sandbox.baseUrl);
    await expect(app.getByRole('alert').filter({ hasText: 'Địa chỉ mới thuộc máy chủ khác' })).toHaveCount(0);
    await app.getByLabel('Địa chỉ dịch vụ (base URL)').fill(moved.toString());
    await app.getByRole('button', { name: 'Lưu cấu hình' }).click();
    await expect(app.getByText('Đã lưu cấu hình Quầy 1. Địa chỉ máy chủ đã đổi nên cấu hình này đã đăng xuất: hãy đăng nhập lại.')).toBeVisible();
    await expect(app.getByTestId('auth-state')).toContainText('Chưa đăng nhập');

    // Offline and online again, on the built-in Sandbox's own switch.
    // What was typed for Quầy 1 never goes to another profile's sign-in.
    await expect(account.getByLabel('Mật khẩu', { exact: true })).toHaveValue('mat-khau-quay-1');
    await app.getByRole('button', { name: 'Dùng cấu hình Sandbox' }).click();
    await expect(app.getByText('Cấu hình: Sandbox')).toBeVisible();
    await expect(account.getByLabel('Mật khẩu', { exact: true })).toHaveValue('');
    const state = app.getByRole('status').filter({ hasText: /Đang trực tuyến|Mất kết nối/ });
    await expect(state).toHaveText(/Đang trực tuyến/);
    await app.getByRole('button', { name: 'Dừng sandbox (giả lập mất mạng)' }).click();
    await expect(state).toHaveText(/Mất kết nối/);
    await app.getByRole('button', { name: 'Bật lại sandbox' }).click();
    await expect(state).toHaveText(/Đang trực tuyến/);
  });
});

test('Export diagnostics writes a zip to the data folder, and the update switch says why it is locked here', async ({ app, host }) => {
  await app.getByRole('button', { name: 'Cài đặt' }).click();
  // The browser host is not an installed build: the switch is off and explains itself.
  const autoUpdate = app.getByRole('checkbox', { name: 'Tự động cập nhật ứng dụng' });
  await expect(autoUpdate).toBeDisabled();
  await expect(autoUpdate).not.toBeChecked();
  await expect(app.getByText('Chỉ bản cài đặt (không phải bản chạy thử trong trình duyệt) mới tự cập nhật.')).toBeVisible();

  await app.getByRole('button', { name: 'Xuất thông tin chẩn đoán' }).click();
  const saved = app.getByRole('status').filter({ hasText: 'Đã lưu tệp chẩn đoán:' });
  await expect(saved).toBeVisible();
  const zipPath = /Đã lưu tệp chẩn đoán: (.+\.zip)/.exec((await saved.textContent()) ?? '')?.[1];
  expect(zipPath?.startsWith(host.dataDir)).toBe(true);
  const fs = await import('node:fs');
  const { unzipSync, strFromU8 } = await import('fflate');
  const entries = unzipSync(fs.readFileSync(zipPath!));
  expect(Object.keys(entries)).toContain('about.json');
  expect(Object.keys(entries).some((name) => name.startsWith('logs/'))).toBe(true);
  expect(
    Object.values(entries)
      .map((b) => strFromU8(b))
      .join('\n'),
  ).not.toMatch(/einvoice-sandbox-dev-token/);
});

test('the decimal digits the shop issues with are chosen in Settings and kept', async ({ app }) => {
  await app.getByRole('button', { name: 'Cài đặt' }).click();
  const digits = app.getByRole('group', { name: 'Số chữ số thập phân khi phát hành' });
  await expect(digits.getByLabel('Số lượng')).toHaveValue('');
  await digits.getByLabel('Số lượng').selectOption('3');
  await digits.getByLabel('Thành tiền quy đổi (VND)').selectOption('0');
  // A batch size the service would refuse is named in the screen's language, and the field gets the focus.
  const batch = app.getByLabel('Số hóa đơn mỗi lần tải (1–50)');
  await batch.fill('80');
  await app.getByRole('button', { name: 'Lưu tùy chọn' }).click();
  await expect(app.getByText('Số hóa đơn mỗi lần tải phải là số nguyên từ 1 đến 50.')).toBeVisible();
  await expect(batch).toBeFocused();
  await batch.fill('50');
  await app.getByRole('button', { name: 'Lưu tùy chọn' }).click();
  await expect(app.getByText('Đã lưu tùy chọn.')).toBeVisible();
  await app.getByRole('button', { name: 'Mẫu hóa đơn' }).click();
  await app.getByRole('button', { name: 'Cài đặt' }).click();
  await expect(digits.getByLabel('Số lượng')).toHaveValue('3');
  await expect(digits.getByLabel('Thành tiền quy đổi (VND)')).toHaveValue('0');
  await expect(digits.getByLabel('Đơn giá')).toHaveValue('');
});

test('edits not saved (Issuing, Preferences, a connection profile, a sign-in) are not lost by opening another screen: the app asks, another section saved keeps them, a password typed goes when they are let go', async ({
  app,
}) => {
  await app.setViewportSize({ width: 1366, height: 768 });
  // A draft is open behind: a move held back does not close it.
  await app.getByRole('button', { name: 'Tạo hóa đơn nháp' }).click();
  await expect(app.getByRole('button', { name: '← Danh sách' })).toBeVisible();
  await app.getByRole('button', { name: 'Cài đặt' }).click();
  const batch = app.getByLabel('Số email mỗi lần gửi (1–100)');
  await expect(batch).toHaveValue('20');
  await batch.fill('30');
  await expect(app.getByText('Có thay đổi chưa lưu')).toBeVisible();

  // Saving another section (the settings change under this form) leaves the edit in place.
  await app.getByRole('button', { name: 'Lưu cài đặt phát hành' }).click();
  await expect(app.getByText('Đã lưu cài đặt phát hành.')).toBeVisible();
  await expect(batch).toHaveValue('30');

  // Another screen: asked first; staying puts the cursor on the form's Save.
  await app.getByRole('navigation').getByRole('button', { name: 'Hóa đơn nháp' }).click();
  const ask = app.getByRole('dialog', { name: 'Chưa lưu thay đổi' });
  await expect(ask).toContainText('Có thay đổi trong Cài đặt chưa được lưu');
  await expect(ask.getByRole('button', { name: 'Ở lại để lưu' })).toBeFocused();
  await app.screenshot({ path: test.info().outputPath('settings-leave-unsaved.png') });
  await app.keyboard.press('Enter');
  await expect(ask).toBeHidden();
  await expect(app.getByRole('heading', { level: 1, name: 'Cài đặt' })).toBeVisible();
  await expect(app.getByRole('button', { name: 'Lưu tùy chọn' })).toBeFocused();
  await expect(batch).toHaveValue('30');

  // Asked again, the edit is let go: the drafts open, and Settings shows what is stored.
  await app.keyboard.press('Alt+1');
  await ask.getByRole('button', { name: 'Bỏ thay đổi, mở Hóa đơn nháp' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
  await expect(app.getByRole('button', { name: '← Danh sách' })).toBeVisible();
  await app.getByRole('navigation').getByRole('button', { name: 'Cài đặt' }).click();
  await expect(batch).toHaveValue('20');

  // Saved edits ask nothing.
  await batch.fill('30');
  await app.getByRole('button', { name: 'Lưu tùy chọn' }).click();
  await expect(app.getByText('Đã lưu tùy chọn.')).toBeVisible();
  await expect(app.getByText('Có thay đổi chưa lưu')).toHaveCount(0);
  await app.getByRole('navigation').getByRole('button', { name: 'Hóa đơn nháp' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
  await expect(ask).toHaveCount(0);

  // A connection profile being added or edited, and a sign-in being typed, are edits too.
  const open = (area: string) => app.getByRole('navigation').getByRole('button', { name: area }).click();
  const unsavedMark = 'Có thay đổi chưa lưu';
  await open('Cài đặt');

  // A profile being added: asked; staying puts the cursor on its Add button; added, nothing is asked.
  const adding = app.getByRole('form', { name: 'Thêm cấu hình kết nối' });
  await adding.getByLabel('Tên cấu hình').fill('Quầy 2');
  await adding.getByLabel('Loại kết nối').selectOption({ label: 'Môi trường test (meInvoice)' });
  await expect(adding.getByText(unsavedMark)).toBeVisible();
  await open('Hóa đơn nháp');
  await expect(ask).toContainText('Có thay đổi trong Cài đặt chưa được lưu');
  await ask.getByRole('button', { name: 'Ở lại để lưu' }).click();
  await expect(adding.getByRole('button', { name: 'Thêm cấu hình' })).toBeFocused();
  await expect(adding.getByLabel('Tên cấu hình')).toHaveValue('Quầy 2');
  await app.screenshot({ path: test.info().outputPath('settings-profile-unsaved.png') });
  await adding.getByRole('button', { name: 'Thêm cấu hình' }).click();
  await expect(app.getByText('Đã thêm cấu hình Quầy 2.')).toBeVisible();
  await expect(app.getByText(unsavedMark)).toHaveCount(0);

  // Another profile opened for editing while one is being typed: the typing stays until it is let go.
  await adding.getByLabel('Tên cấu hình').fill('Quầy 4');
  await app.getByRole('button', { name: 'Sửa cấu hình Quầy 2' }).click();
  const typingNotice = app.getByRole('alert').filter({ hasText: 'Cấu hình đang nhập bên dưới chưa được lưu.' });
  await expect(typingNotice).toBeVisible();
  await typingNotice.getByRole('button', { name: 'Tiếp tục nhập' }).click();
  await expect(typingNotice).toHaveCount(0);
  await expect(adding.getByLabel('Tên cấu hình')).toHaveValue('Quầy 4');
  await expect(adding.getByLabel('Tên cấu hình')).toBeFocused();
  await app.getByRole('button', { name: 'Sửa cấu hình Quầy 2' }).click();
  await expect(typingNotice).toBeVisible();
  // Saved meanwhile: the question goes, and does not come back with the next typing.
  await adding.getByLabel('Loại kết nối').selectOption({ label: 'Môi trường test (meInvoice)' });
  await adding.getByRole('button', { name: 'Thêm cấu hình' }).click();
  await expect(app.getByText('Đã thêm cấu hình Quầy 4.')).toBeVisible();
  await expect(typingNotice).toHaveCount(0);
  await adding.getByLabel('Tên cấu hình').fill('Quầy 5');
  await expect(adding.getByText(unsavedMark)).toBeVisible();
  await expect(typingNotice).toHaveCount(0);
  await app.getByRole('button', { name: 'Sửa cấu hình Quầy 2' }).click();
  await typingNotice.scrollIntoViewIfNeeded();
  await app.screenshot({ path: test.info().outputPath('settings-profile-switch.png') });
  await typingNotice.getByRole('button', { name: 'Bỏ phần đang nhập, sửa Quầy 2' }).click();
  const editingQ2 = app.getByRole('form', { name: 'Sửa cấu hình Quầy 2' });
  await expect(editingQ2.getByLabel('Tên cấu hình')).toHaveValue('Quầy 2');
  await expect(app.getByText(unsavedMark)).toHaveCount(0);
  // The profile being edited asked for again: nothing to let go, the cursor goes back to it.
  await editingQ2.getByLabel('Tên cấu hình').fill('Quầy 2b');
  await app.getByRole('button', { name: 'Sửa cấu hình Quầy 2' }).click();
  await expect(typingNotice).toHaveCount(0);
  await expect(editingQ2.getByLabel('Tên cấu hình')).toBeFocused();
  await expect(editingQ2.getByLabel('Tên cấu hình')).toHaveValue('Quầy 2b');
  await editingQ2.getByRole('button', { name: 'Hủy' }).click();
  await expect(app.getByText(unsavedMark)).toHaveCount(0);

  // A profile being edited, then cancelled: nothing is asked.
  await app.getByRole('button', { name: 'Sửa cấu hình Quầy 2' }).click();
  const editing = app.getByRole('form', { name: 'Sửa cấu hình Quầy 2' });
  await editing.getByLabel('Tên cấu hình').fill('Quầy 3');
  await expect(editing.getByText(unsavedMark)).toBeVisible();
  await editing.getByRole('button', { name: 'Hủy' }).click();
  await expect(app.getByText(unsavedMark)).toHaveCount(0);
  await open('Mẫu hóa đơn');
  await expect(app.getByRole('heading', { level: 1, name: 'Mẫu hóa đơn' })).toBeVisible();
  await expect(ask).toHaveCount(0);

  // A sign-in being typed: asked; staying puts the cursor on the first field still empty (its button
  // waits for it); let go, the password typed is gone with it.
  await open('Cài đặt');
  const account = app.getByRole('form', { name: 'Đăng nhập bằng tài khoản' });
  await account.getByLabel('Mật khẩu', { exact: true }).fill('mat-khau-chua-gui');
  await expect(account.getByText(unsavedMark)).toBeVisible();
  await open('Hóa đơn nháp');
  await ask.getByRole('button', { name: 'Ở lại để lưu' }).click();
  await expect(account.getByLabel('Mã ứng dụng (App ID)')).toBeFocused();
  await expect(account.getByLabel('Mật khẩu', { exact: true })).toHaveValue('mat-khau-chua-gui');
  await account.getByText(unsavedMark).scrollIntoViewIfNeeded();
  await app.screenshot({ path: test.info().outputPath('settings-sign-in-unsaved.png') });
  await open('Hóa đơn nháp');
  await ask.getByRole('button', { name: 'Bỏ thay đổi, mở Hóa đơn nháp' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
  await open('Cài đặt');
  await expect(account.getByLabel('Mật khẩu', { exact: true })).toHaveValue('');
  await expect(app.getByText(unsavedMark)).toHaveCount(0);

  // A token pasted and not used is asked about too.
  await app.getByLabel('Token truy cập').fill('token-chua-dung');
  await open('Hóa đơn nháp');
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Bỏ thay đổi, mở Hóa đơn nháp' }).click();
  await open('Cài đặt');
  await expect(app.getByLabel('Token truy cập')).toHaveValue('');
  await open('Hóa đơn nháp');
  await expect(ask).toHaveCount(0);
});
