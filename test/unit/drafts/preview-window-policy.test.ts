import { describe, expect, it } from 'vitest';
import {
  PREVIEW_PARTITION,
  isAllowedNavigation,
  previewIdFromUrl,
  previewUrl,
  previewWebPreferences,
} from '../../../main/services/preview/window-policy';

describe('preview window policy', () => {
  it('is sandboxed, has no preload and its own persistent partition', () => {
    const p = previewWebPreferences();
    expect(p).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(p).not.toHaveProperty('preload');
    expect(PREVIEW_PARTITION).toMatch(/^persist:/);
    expect(p.partition).toBe(PREVIEW_PARTITION);
  });

  it('round-trips preview ids through preview:// URLs and refuses anything else', () => {
    const url = previewUrl('3f2a/..?x');
    expect(url.startsWith('preview://kept/')).toBe(true);
    expect(previewIdFromUrl(url)).toBe('3f2a/..?x');
    expect(previewIdFromUrl('preview://other/abc.pdf')).toBeNull();
    expect(previewIdFromUrl('app://einvoice/index.html')).toBeNull();
    expect(previewIdFromUrl('not a url')).toBeNull();
  });

  it('locks navigation to the starting origin', () => {
    const kept = previewUrl('a');
    expect(isAllowedNavigation(kept, previewUrl('a'))).toBe(true);
    expect(isAllowedNavigation(kept, 'https://evil.example/')).toBe(false);
    expect(isAllowedNavigation(kept, 'app://einvoice/index.html')).toBe(false);
    const page = 'https://testapi.meinvoice.vn/preview/abc';
    expect(isAllowedNavigation(page, 'https://testapi.meinvoice.vn/preview/abc?page=2')).toBe(true);
    expect(isAllowedNavigation(page, 'https://other.meinvoice.vn/')).toBe(false);
    expect(isAllowedNavigation(page, 'file:///etc/passwd')).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.1:4000/preview/x.pdf', 'http://127.0.0.1:4000/preview/y.pdf')).toBe(true);
    expect(isAllowedNavigation('http://127.0.0.1:4000/p', 'http://127.0.0.1:4001/p')).toBe(false);
  });
});
