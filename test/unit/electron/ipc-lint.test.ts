import { ESLint } from 'eslint';
import { expect, it } from 'vitest';

it('lint keeps ipcMain to main/electron/ipc.ts', async () => {
  const eslint = new ESLint();
  const code = "import { ipcMain } from 'electron';\nexport const handlers = ipcMain;\n";
  const messages = async (filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0]!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  expect(await messages('main/electron/windows.ts')).toEqual([expect.stringContaining('Only main/electron/ipc.ts uses ipcMain')]);
  expect(await messages('main/electron/updater/index.ts')).toHaveLength(1);
  expect(await messages('main/electron/ipc.ts')).toEqual([]);
}, 30_000);
