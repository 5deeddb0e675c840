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

/**
 * The module shape (README "Layout"; issue 26): only `*.repository.ts` files run SQL, a module
 * reaches another through its service, never its repository, and no two modules import each other.
 * What broke a rule before the rule was written is listed here, to be taken off as each module is
 * put in shape: a new break fails, and so does an entry that no longer breaks (the list only shrinks).
 */
const SQL_OUTSIDE_REPOSITORIES = [
  'events/event.input.ts',
  'events/event.list.ts',
  'events/event.search-counts.ts',
  'events/event.search.ts',
  'events/event.term-filter.ts',
  'events/event.window-count.ts',
  'feeds/feed.query.ts',
  'feeds/ical.series.ts',
  'import/import.jobs.ts',
  'import/import.writer.ts',
  'languages/language-report.ts',
  'linked/linked.list.ts',
  'linked/linked.service.ts',
  'operations/backup.ts',
  'operations/copy.target.ts',
  'operations/copy.ts',
  'operations/health.routes.ts',
  'operations/metrics.ts',
  'operations/tables.ts',
  'pages/page.query.ts',
  'pages/pages.routes.ts',
  'posts/post-ids.ts',
  'posts/post.service.ts',
  'recurrence/recurrence.materialize.ts',
  'recurrence/recurrence.overview.ts',
  'recurrence/recurrence.series.ts',
  'sync/sync.records.ts',
  'terms/term.embed.ts',
  'users/user.service.ts',
];
const OTHER_MODULES_REPOSITORIES = [
  'events/event.input.ts -> recurrence/recurrence.repository.ts',
  'feeds/ical.series.ts -> recurrence/recurrence.repository.ts',
  'recurrence/recurrence.horizon.ts -> events/event.repository.ts',
  'recurrence/recurrence.materialize.ts -> events/event.repository.ts',
  'recurrence/recurrence.scope.ts -> events/event.repository.ts',
  'recurrence/recurrence.series.ts -> events/event.repository.ts',
];
const MUTUAL_IMPORTS = [
  'events <-> feeds',
  'events <-> recurrence',
  'images <-> posts',
];

const MODULES = path.join('src', 'modules');
/** A statement built or sent: Kysely's builders, the sql tag, a raw query. */
const RUNS_SQL =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`|\.executeQuery\(|\bsql\.raw\(/;

/** Value imports (type-only ones cost nothing at run time) of a module file, as paths under src/modules/. */
function moduleImportsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms)]
    .map((m) => path.relative(MODULES, path.resolve(path.dirname(file), m[1]!)).replace(/\.js$/, '.ts'))
    .filter((target) => !target.startsWith('..'));
}

const moduleOf = (relative: string): string => relative.split(path.sep)[0]!;

describe('module shape (grandfathered breaks listed, none added)', () => {
  const files = filesUnder(MODULES).map((file) => ({ file, relative: path.relative(MODULES, file) }));

  it('should run SQL only in *.repository.ts files', () => {
    const found = files
      .filter(({ file, relative }) => !relative.endsWith('.repository.ts') && RUNS_SQL.test(readFileSync(file, 'utf8')))
      .map((f) => f.relative.split(path.sep).join('/'));
    assert.deepEqual(found.sort(), [...SQL_OUTSIDE_REPOSITORIES].sort());
  });

  it('should reach another module through its service, never its repository', () => {
    const found = files.flatMap(({ file, relative }) =>
      moduleImportsOf(file)
        .filter((target) => target.endsWith('.repository.ts') && moduleOf(target) !== moduleOf(relative))
        .map((target) => `${relative} -> ${target}`.split(path.sep).join('/')),
    );
    assert.deepEqual(found.sort(), [...OTHER_MODULES_REPOSITORIES].sort());
  });

  it('should have no two modules importing each other', () => {
    const edges = new Set(
      files.flatMap(({ file, relative }) =>
        moduleImportsOf(file)
          .filter((t) => moduleOf(t) !== moduleOf(relative))
          .map((t) => `${moduleOf(relative)} -> ${moduleOf(t)}`),
      ),
    );
    const mutual = [...edges]
      .map((e) => e.split(' -> ') as [string, string])
      .filter(([a, b]) => a < b && edges.has(`${b} -> ${a}`))
      .map(([a, b]) => `${a} <-> ${b}`);
    assert.deepEqual(mutual.sort(), [...MUTUAL_IMPORTS].sort());
  });
});
