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
 * reaches another through its service, never its repository, no two modules import each other,
 * mappers turn rows into objects without reading anything, every file's name says its layer or
 * topic, and every route is typed by its schema.
 */
const MODULES = path.join('src', 'modules');
/** A statement built or sent: Kysely's builders, the sql tag, a raw query. */
const RUNS_SQL =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`|\.executeQuery\(|\bsql\.raw\(/;
/** `<subject>.<layer or topic>.ts`: `event-list.service.ts`, `recurrence.rule.ts`. */
const FILE_NAME = /^[a-z0-9-]+\.[a-z0-9-]+\.ts$/;
const LAYERS = ['routes', 'schema', 'service', 'repository', 'mapper'];

/** Value imports (type-only ones cost nothing at run time) of a module file, as paths under src/modules/. */
function moduleImportsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms)]
    .map((m) => path.relative(MODULES, path.resolve(path.dirname(file), m[1]!)).replace(/\.js$/, '.ts'))
    .filter((target) => !target.startsWith('..'));
}

const moduleOf = (relative: string): string => relative.split(path.sep)[0]!;
const layerOf = (relative: string): string => path.basename(relative).split('.').at(-2)!;
const slash = (relative: string): string => relative.split(path.sep).join('/');

describe('module shape', () => {
  const files = filesUnder(MODULES).map((file) => ({ file, relative: path.relative(MODULES, file) }));

  it('should run SQL only in *.repository.ts files', () => {
    const found = files
      .filter(({ file, relative }) => layerOf(relative) !== 'repository' && RUNS_SQL.test(readFileSync(file, 'utf8')))
      .map((f) => slash(f.relative));
    assert.deepEqual(found, []);
  });

  it('should reach another module through its service, never its repository', () => {
    const found = files.flatMap(({ file, relative }) =>
      moduleImportsOf(file)
        .filter((target) => layerOf(target) === 'repository' && moduleOf(target) !== moduleOf(relative))
        .map((target) => slash(`${relative} -> ${target}`)),
    );
    assert.deepEqual(found, []);
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
    assert.deepEqual(mutual, []);
  });

  it('should keep mappers free of reads: a *.mapper.ts imports no repository and no service', () => {
    const found = files
      .filter(({ relative }) => layerOf(relative) === 'mapper')
      .flatMap(({ file, relative }) =>
        moduleImportsOf(file)
          .filter((target) => ['repository', 'service'].includes(layerOf(target)))
          .map((target) => slash(`${relative} -> ${target}`)),
      );
    assert.deepEqual(found, []);
  });

  it('should name every file <subject>.<layer or topic>.ts', () => {
    const found = files
      .filter(({ relative }) => !FILE_NAME.test(path.basename(relative)))
      .map((f) => slash(f.relative));
    assert.deepEqual(found, []);
    // Each module has at least one of the layers (a module of topic files only would be a library).
    for (const module of new Set(files.map((f) => moduleOf(f.relative))))
      assert.ok(
        files.some((f) => moduleOf(f.relative) === module && LAYERS.includes(layerOf(f.relative))),
        `${module} has no layer file`,
      );
  });

  it('should type every route by its schema: the TypeBox provider, no casts of the request, no untyped hand-over', () => {
    const found = files
      .filter(({ relative }) => layerOf(relative) === 'routes')
      .flatMap(({ file, relative }) => {
        const source = readFileSync(file, 'utf8');
        const problems: string[] = [];
        const registers = /\b(app|fastify)\.(get|post|put|patch|delete|head|route)\(/.test(source);
        if (registers && !source.includes('withTypeProvider<TypeBoxTypeProvider>()')) problems.push('no type provider');
        if (/request\.(query|body|params|headers)\s+as\b/.test(source)) problems.push('casts the request');
        if (/request\.prepared\b/.test(source)) problems.push('request.prepared');
        return problems.map((p) => `${slash(relative)}: ${p}`);
      });
    assert.deepEqual(found, []);
  });

  it('should keep tests beside their module: test/modules/<module>/ only for modules that exist', () => {
    const modules = new Set(files.map((f) => moduleOf(f.relative)));
    const strays = readdirSync(path.join('test', 'modules')).filter((name) => !modules.has(name));
    assert.deepEqual(strays, []);
  });
});
