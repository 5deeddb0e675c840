#!/usr/bin/env node
// The build compiles TypeScript only: the pages' templates and stylesheet are copied beside their
// compiled module, where page.assets.ts looks for them (next to itself, from src/ or from dist/).
import { cpSync } from 'node:fs';

for (const folder of ['templates', 'assets']) {
  cpSync(`src/modules/pages/${folder}`, `dist/src/modules/pages/${folder}`, { recursive: true });
}
