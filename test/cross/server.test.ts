import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

describe('server.ts', () => {
  it('should serve, keep its data across a restart, and exit 0 on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-server-'));
    const start = async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: '0',
          CAL_ADMIN_PASSWORD: 'a-long-enough-password',
          LOG_LEVEL: 'info',
          DATABASE_URL: '',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const lines = readline.createInterface({ input: child.stdout! });
      const address = await new Promise<string>((resolve, reject) => {
        lines.on('line', (line) => {
          const entry = JSON.parse(line) as { msg: string; address?: string };
          if (entry.msg === 'ready') resolve(entry.address!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      return { child, address };
    };
    const stop = async (child: ReturnType<typeof spawn>) => {
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exit;
    };

    const first = await start();
    const auth = `Basic ${Buffer.from('admin:a-long-enough-password').toString('base64')}`;
    const created = await fetch(`${first.address}/cal/events/v1/events`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Survives restarts',
        start_date: '2031-01-01 10:00:00',
        end_date: '2031-01-01 11:00:00',
      }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: number };
    assert.equal(await stop(first.child), 0);

    const second = await start();
    const read = await fetch(`${second.address}/cal/events/v1/events/${id}`);
    assert.equal(read.status, 200);
    assert.equal(await stop(second.child), 0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
