import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPostgresUrl, openStore } from './index';

describe('openStore', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps the data in <dataDir>/synctv.db when no database URL is given', async () => {
    const store = await openStore({ dataDir, databaseUrl: '' });
    await store.ping();
    await store.close();
    expect(fs.existsSync(path.join(dataDir, 'synctv.db'))).toBe(true);
  });

  it.each(['postgress://db/synctv', 'mysql://user:secret@db/synctv', 'db.example:5432'])(
    'refuses %s instead of quietly starting an empty SQLite file, and shows no password',
    async (databaseUrl) => {
      const opening = openStore({ dataDir, databaseUrl });
      await expect(opening).rejects.toThrow(/DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//);
      await expect(opening).rejects.not.toThrow(/secret/);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
  );

  it('recognises both PostgreSQL schemes, in any case', () => {
    expect(['postgres://h/d', 'postgresql://h/d', 'POSTGRES://h/d'].map(isPostgresUrl)).toEqual([true, true, true]);
    expect(['', undefined, 'postgres:/h', 'sqlite://x'].map(isPostgresUrl)).toEqual([false, false, false, false]);
  });
});
