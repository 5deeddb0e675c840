import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Import specifiers of a TypeScript file (static and dynamic). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/(?:from\s+|import\s*\(\s*)'([^']+)'/g)].map((m) => m[1]!);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('module boundaries', () => {
  it('should keep src/http/ and src/auth/ free of imports from src/modules/ (shared pieces serve every module)', () => {
    for (const dir of ['src/http', 'src/auth', 'src/lib', 'src/db']) {
      for (const file of filesUnder(dir)) {
        const offending = importsOf(file).filter(
          (spec) =>
            spec.startsWith('.') &&
            path.resolve(path.dirname(file), spec).includes(`${path.sep}src${path.sep}modules${path.sep}`),
        );
        assert.deepEqual(offending, [], `${file} imports a module`);
      }
    }
  });
});
