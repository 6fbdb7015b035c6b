/** @jest-environment node */
/**
 * The compose-style description of a two-instance site (deploy/cluster/compose.yaml) against what
 * the code and the nginx file expect: the tests cannot start containers here, so they check that
 * every variable the instances are given is one server/main.ts reads and docs/deployment.md
 * documents, that both instances reach the one PostgreSQL and Redis the file starts, and that
 * their ports are nginx's upstreams.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  environment?: Record<string, string>;
  command?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
}

const compose = parse(read('deploy/cluster/compose.yaml')) as { services: Record<string, Service> };
const instances = ['synctv-1', 'synctv-2'].map((name) => compose.services[name]);

it('gives the instances only variables that server/main.ts reads and docs/deployment.md lists', () => {
  const main = read('server/main.ts');
  const documented = new Set([...read('docs/deployment.md').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]));
  for (const instance of instances) {
    const names = Object.keys(instance.environment ?? {});
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect({ name, read: new RegExp(`\\benv\\.${name}\\b`).test(main) }).toEqual({ name, read: true });
      expect({ name, documented: documented.has(name) }).toEqual({ name, documented: true });
    }
  }
});

it('points both instances at the PostgreSQL and the Redis the file starts, and waits for them', () => {
  const postgres = compose.services.postgres.environment ?? {};
  const expected = `postgres://${postgres.POSTGRES_USER}:${postgres.POSTGRES_PASSWORD}@127.0.0.1:5432/${postgres.POSTGRES_DB}`;
  for (const instance of instances) {
    expect(instance.environment?.DATABASE_URL).toBe(expected);
    expect(instance.environment?.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(instance.environment?.DATA_DIR).toBe('/data');
  }
  expect(compose.services.redis.command).toEqual(expect.arrayContaining(['--bind', '127.0.0.1']));
  expect(compose.services['synctv-1'].depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, redis: {} });
  // The second starts after the first has migrated the database and written the JWT secret.
  expect(compose.services['synctv-2'].depends_on).toMatchObject({ 'synctv-1': { condition: 'service_healthy' } });
});

it('runs the instances on the ports that nginx.conf sends to', () => {
  const upstreams = [...read('deploy/cluster/nginx.conf').matchAll(/server 127\.0\.0\.1:(\d+)/g)].map((match) => match[1]);
  expect(instances.map((instance) => instance.environment?.PORT)).toEqual(upstreams);
});
