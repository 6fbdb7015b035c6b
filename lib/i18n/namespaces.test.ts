/**
 * The feature namespaces load with the components that use them (lib/i18n/messages.ts): this checks,
 * from the sources, that every file naming a key of a feature namespace imports that namespace's
 * module, so no screen can show a raw key because its texts were never loaded.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { account } from './messages/account';
import { admin } from './messages/admin';
import { auth } from './messages/auth';
import { cinema } from './messages/cinema';
import { common } from './messages/common';
import { errors } from './messages/errors';
import { help } from './messages/help';
import { lists } from './messages/lists';
import { live } from './messages/live';
import { movieForm } from './messages/movie-form';
import { player } from './messages/player';
import { playerProblem } from './messages/player-problem';
import { roomAdmin } from './messages/room-admin';
import { rooms } from './messages/rooms';
import { user } from './messages/user';
import { vendors } from './messages/vendors';
import { translate } from './messages';
import './plural';

const ROOT = path.resolve(__dirname, '..', '..');
const features = { account, admin, auth, cinema, rooms, user, errors, 'room-admin': roomAdmin, player, 'player-problem': playerProblem, lists, live, 'movie-form': movieForm, help, vendors } as const;

/** First key segment → namespace, derived from the catalogues themselves. */
function prefixOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  const all: Record<string, { zh: object }> = { common, ...features };
  for (const [name, namespace] of Object.entries(all)) {
    for (const key of Object.keys(namespace.zh)) {
      const prefix = key.split('.')[0];
      const owner = owners.get(prefix);
      if (owner !== undefined && owner !== name) throw new Error(`key prefix "${prefix}" is used by both ${owner} and ${name}`);
      owners.set(prefix, name);
    }
  }
  return owners;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The code without comments (a rough strip: enough for string literals that look like keys). */
function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

describe('message namespaces', () => {
  const owners = prefixOwners();

  it('give each key prefix to exactly one namespace', () => {
    expect(owners.get('route')).toBe('common');
    expect(owners.get('cinema')).toBe('cinema');
    expect(owners.get('login')).toBe('auth');
  });

  it('are imported by every file that uses their keys', () => {
    const missing: string[] = [];
    const files = ['app', 'components', 'hooks', 'lib', 'config'].flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const relative = path.relative(ROOT, file);
      if (relative.startsWith(`lib${path.sep}i18n${path.sep}`)) continue;
      const code = withoutComments(readFileSync(file, 'utf8'));
      const needed = new Set<string>();
      for (const match of code.matchAll(/['"`]([a-zA-Z]+)\.[a-zA-Z]/g)) {
        const owner = owners.get(match[1]);
        if (owner && owner !== 'common') needed.add(owner);
      }
      // A server component's imports never reach the browser: registering a namespace there would
      // translate the prerendered HTML but not the hydrating client (a hydration mismatch). Pages and
      // layouts under app/ that are not client modules may pass common keys only.
      const serverComponent = relative.startsWith(`app${path.sep}`) && !/^\s*['"]use client['"]/.test(code);
      for (const namespace of needed) {
        if (serverComponent) missing.push(`${relative} is a server component: its ${namespace} keys must come from a client component or from common`);
        // A static import, or a dynamic one for texts loaded when needed (the error catalogue).
        else if (!code.includes(`import '@/lib/i18n/messages/${namespace}';`) && !code.includes(`import('@/lib/i18n/messages/${namespace}')`)) missing.push(`${relative} needs import '@/lib/i18n/messages/${namespace}';`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('translate a registered key in both languages and fall back to the key otherwise', () => {
    expect(translate('en', 'cinema.player.watchOnly')).toBe(cinema.en['cinema.player.watchOnly']);
    expect(translate('zh', 'cinema.player.watchOnly')).toBe(cinema.zh['cinema.player.watchOnly']);
    expect(translate('en', 'route.home')).toBe(common.en['route.home']);
    expect(translate('en', 'no.such.key' as never)).toBe('no.such.key');
  });

  it('have every key in both languages, with the same placeholders', () => {
    // `{name}`, and the parameter of a plural form `{name, plural, …}`.
    const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((match) => match[1]))].sort();
    const problems: string[] = [];
    for (const [name, namespace] of Object.entries({ common, ...features }) as [string, { zh: Record<string, string>; en: Record<string, string> }][]) {
      const zhKeys = Object.keys(namespace.zh).sort();
      const enKeys = Object.keys(namespace.en).sort();
      for (const key of zhKeys.filter((key) => !(key in namespace.en))) problems.push(`${name}: ${key} has no English text`);
      for (const key of enKeys.filter((key) => !(key in namespace.zh))) problems.push(`${name}: ${key} has no Chinese text`);
      for (const key of zhKeys.filter((key) => key in namespace.en)) {
        const zh = placeholders(namespace.zh[key]).join(',');
        const en = placeholders(namespace.en[key]).join(',');
        if (zh !== en) problems.push(`${name}: ${key} has {${zh}} in Chinese and {${en}} in English`);
        if (!namespace.zh[key].trim() || !namespace.en[key].trim()) problems.push(`${name}: ${key} is blank`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('pick plural forms by the language\'s rules', () => {
    expect(translate('en', 'search.results', { n: 1 })).toBe('1 room found');
    expect(translate('en', 'search.results', { n: 0 })).toBe('0 rooms found');
    expect(translate('en', 'search.results', { n: 21 })).toBe('21 rooms found');
    expect(translate('zh', 'search.results', { n: 1 })).toBe(rooms.zh['search.results'].replace('{n}', '1'));
  });

  it('load the plural rules in every file that uses a plural text', () => {
    const pluralKeys = Object.values(features).flatMap((namespace) =>
      Object.keys(namespace.en).filter((key) => [(namespace.en as Record<string, string>)[key], (namespace.zh as Record<string, string>)[key]].some((text) => text.includes(', plural,'))),
    );
    expect(pluralKeys).toContain('search.results');
    const files = ['app', 'components', 'hooks', 'lib', 'config'].flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
    const missing = files
      .filter((file) => !file.includes(`${path.sep}lib${path.sep}i18n${path.sep}`))
      .filter((file) => {
        const code = withoutComments(readFileSync(file, 'utf8'));
        return pluralKeys.some((key) => code.includes(`'${key}'`)) && !code.includes("import '@/lib/i18n/plural';");
      })
      .map((file) => path.relative(ROOT, file));
    expect(missing).toEqual([]);
  });
});
