/** Every formula names its source, and every source is a section of the repository's own docs. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const formulas = fs.readFileSync(path.join(root, 'common/money/formulas.ts'), 'utf8');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(doc: string): Set<string> {
  const text = fs.readFileSync(path.join(root, doc), 'utf8');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));
}

describe('formula sources', () => {
  const header = formulas.slice(0, formulas.indexOf('*/'));
  const tags = new Map([...header.matchAll(/\[(\w+)\]\s+([^\n]+(?:\n \*\s{10,}[^\n]+)*)/g)].map((m) => [m[1]!, m[2]!]));

  it('each source tag points only at docs/*.md sections that exist', () => {
    expect([...tags.keys()].sort()).toEqual(['ISSUING', 'RULES', 'SERVICE']);
    // Spelled in pieces so that this file itself does not carry the references it forbids.
    const outside = ['/wo' + 'rk/', 'sha' + 'red/', 'DOM' + 'AIN.md', 'service' + '-api'];
    for (const ref of outside) expect(formulas).not.toContain(ref);
    expect(formulas).not.toMatch(/issue \d/i);
    for (const [tag, text] of tags) {
      // A docs/*.md names the file for the #anchors after it.
      const links = [...text.matchAll(/(docs\/[\w-]+\.md)|#([\w-]+)/g)];
      expect(links.filter((l) => l[2]).length, tag).toBeGreaterThan(0);
      let doc = '';
      for (const [, file, anchor] of links) {
        if (file) doc = file;
        else expect(anchorsOf(doc).has(anchor!), `${tag}: ${doc}#${anchor}`).toBe(true);
      }
    }
  });

  it('every exported formula cites a source tag in its comment', () => {
    const functions = [...formulas.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export function (\w+)/g)];
    expect(functions.length).toBeGreaterThanOrEqual(12);
    for (const [, comment, name] of functions) {
      const cited = [...comment!.matchAll(/\[([A-Z]+)/g)].map((m) => m[1]!);
      expect(cited.length, name).toBeGreaterThan(0);
      for (const tag of cited) expect(tags.has(tag), `${name} cites [${tag}]`).toBe(true);
    }
    const exported = [...formulas.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
    expect(functions.map((f) => f[2])).toEqual(exported);
  });
});
