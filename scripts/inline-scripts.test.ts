/**
 * @jest-environment node
 *
 * The compiled inline scripts (scripts/inline-scripts.mjs): the committed `*.generated.ts` are what
 * their typed entries compile to, so an edit to the early start or the route boot cannot ship the
 * old code; and each compiled script holds only its own code, not the app's.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { EARLY_START_CODE } from '@/lib/room/early-start.generated';
import { EARLY_INPUT_CODE } from '@/components/layout/early-input.generated';
import { ROUTE_BOOT_CODE } from '@/components/layout/route-boot.generated';

const root = path.resolve(__dirname, '..');

describe('inline scripts', () => {
  it('are committed as their entries compile (else: run `node scripts/inline-scripts.mjs`)', () => {
    const output = execFileSync(process.execPath, ['scripts/inline-scripts.mjs', '--check'], { cwd: root, encoding: 'utf8' });
    expect(output).toContain('up to date');
  });

  it('hold statements only (no module syntax, nothing that could close their <script>), and none of the app beyond what they import', () => {
    for (const code of [EARLY_START_CODE, ROUTE_BOOT_CODE, EARLY_INPUT_CODE]) {
      expect(code).not.toMatch(/<\/script|^\s*(import|export)\b/im);
      expect(() => new Function(code)).not.toThrow();
      // lib/storage.ts and config/routes.ts reach them as configuration, not as code.
      expect(code).not.toMatch(/userToken|cinema\/\[roomId\]/);
    }
    expect(ROUTE_BOOT_CODE.length).toBeLessThan(2500);
    expect(EARLY_START_CODE.length).toBeLessThan(5000);
    expect(EARLY_INPUT_CODE.length).toBeLessThan(600);
  });
});
