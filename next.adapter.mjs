/**
 * Next build adapter (next.config.mjs `adapterPath`): after the static export is written, gives every
 * route's HTML a second name, `out/a/b.html` next to `out/a/b/index.html`.
 *
 * Why: SyncTV v0.9.x's `/web` handler serves only exact file names, and Go's FileServer answers
 * `…/index.html` with a redirect to the folder, whose URL then falls back to the home page
 * (server-contract.md §1.3). `a/b.html` is a plain file it serves as is; the route boot script
 * (components/layout/route-boot-script.ts) loads it when the server answered with the wrong document.
 * Running inside `next build` keeps `npx next build` and `npm run build` equivalent.
 */
import { copyFile, access } from 'node:fs/promises';
import path from 'node:path';

const INDEX = `${path.sep}index.html`;

async function exists(file) {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** @type {{ name: string, onBuildComplete(ctx: { outputs: { staticFiles: { id: string, filePath: string }[] } }): Promise<void> }} */
const adapter = {
  name: 'synctv-html-aliases',
  async onBuildComplete({ outputs }) {
    let written = 0;
    for (const { id, filePath } of outputs.staticFiles) {
      // `id` is the path inside the export (`/cinema/_/index.html`). The root index.html has no
      // folder name to alias, and Next already writes 404.html.
      if (!id.endsWith('/index.html') || id === '/index.html') continue;
      const alias = `${filePath.slice(0, -INDEX.length)}.html`;
      if (await exists(alias)) continue;
      await copyFile(filePath, alias);
      written += 1;
    }
    console.log(`  html aliases: ${written} route pages also written as <route>.html`);
  },
};

export default adapter;
